import { request } from 'undici';

/**
 * Puts the mock's store back to its fixtures. A connection left idle for a while (between two rounds, while the
 * CLI runs) may be closed by the mock just as the reset goes out on it ("other side closed"): that one reset is
 * sent once more, on a new connection.
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
    if ((error as { code?: string }).code !== 'UND_ERR_SOCKET') throw error;
    await send(true);
  }
}
