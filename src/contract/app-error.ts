/**
 * The one error class both tools throw deep and catch at their edges. `code` is a stable, snake_case
 * identifier that callers branch on; the message is for people.
 */
export class AppError extends Error {
  readonly code: string;
  readonly details: Readonly<Record<string, unknown>> | undefined;

  constructor(code: string, message: string, details?: Record<string, unknown>) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.details = details;
  }
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}
