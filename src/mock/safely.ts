/** log and onExchange are the caller's code: one that throws must not take the mock down with it. */
export function safely(report: () => void): void {
  try {
    report();
  } catch (error) {
    process.emitWarning(`petstore-mock: the log or onExchange callback threw: ${(error as Error)?.message ?? error}`);
  }
}
