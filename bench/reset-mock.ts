import { request } from 'undici';

/**
 * Puts the mock's store back to its fixtures. A connection left idle for a while (between two rounds, while the
 * CLI runs, since the health probe of a mock that took long to seed) may be closed by the mock just as the reset
 * goes out on it ("other side closed", or ECONNRESET): that one reset is sent once more, on a new connection.
 */
export async function resetMock(origin: string): Promise<void> {
  const send = (fresh: boolean) =>
    request(`${origin}/__admin/reset`, {
      method: 'POST',
      ...(fresh ? { headers: { connection: 'close' }, reset: true } : {}),
    }).then((answer) => answer.body.dump());
  try {
    await send(false);
  } catch (error) {
    const { code } = error as { code?: string };
    if (code !== 'UND_ERR_SOCKET' && code !== 'ECONNRESET') throw error;
    await send(true);
  }
}
