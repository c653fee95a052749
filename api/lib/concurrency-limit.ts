/**
 * Runs at most `size` tasks at once; the others wait their turn in arrival order. A finished task
 * hands its place straight to the next one waiting.
 */
export function concurrencyLimit(size: number) {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async <T>(task: () => Promise<T>): Promise<T> => {
    if (running >= size) await new Promise<void>((resolve) => waiting.push(resolve));
    else running++;
    try {
      return await task();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else running--;
    }
  };
}
