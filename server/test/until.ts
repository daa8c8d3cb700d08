export const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Waits for something another process or a timer brings about (a notification, a job's run),
 * checking every 20 ms; fails after 20 s, naming `what`.
 */
export async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await pause(20);
  }
}
