import type { Finding } from '../run-result.js';

/**
 * Within one case, what follows from its first failure: once a step fails on the contract (a create answered 200
 * where 201 is documented), what later steps find (the list, the fetch, the marks) and the same failure again on
 * that step's repetitions are its consequences, shown under it and not counted beside it. A person triaging reads
 * the cause once, under the name of the case that met it. Findings below --fail-on are not causes, and stay.
 */
export function foldLaterSteps(findings: readonly Finding[]): Finding[] {
  const root = findings.find((f) => f.blocking);
  if (root === undefined) return [...findings];
  const follows = (f: Finding) =>
    f !== root &&
    f.blocking &&
    (f.step > root.step || (f.step === root.step && f.checkId === root.checkId && f.title === root.title));
  const later = findings.filter(follows);
  if (later.length === 0) return [...findings];
  const consequences = [
    ...root.consequences,
    ...later.flatMap((f) => [
      {
        checkId: f.checkId,
        severity: f.severity,
        title: f.step === root.step ? `again: ${f.title}` : `step ${f.step}: ${f.title}`,
      },
      ...f.consequences.map((c) => ({ ...c, title: `step ${f.step}: ${c.title}` })),
    ]),
  ];
  return findings.filter((f) => !follows(f)).map((f) => (f === root ? { ...root, consequences } : f));
}
