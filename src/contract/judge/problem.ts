/** What a judgement found: what was received and what the contract documents (schemathesis's "Received / Documented"). */
export interface Problem {
  readonly title: string;
  readonly received: string;
  readonly documented: string;
}
