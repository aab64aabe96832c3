// How a view loads what it shows and calls the admin API: `usePage` runs the view's load (numbered, so a
// late answer never replaces a newer one) and its calls, whose refusal goes on the view's error line.
import { useEffect, useRef, useState } from 'preact/hooks';
import { problem } from './api.ts';

/** An answer of the admin client (openapi-fetch): the data, or the admin API's refusal. */
export interface Answer<D = unknown> {
  data?: D;
  error?: unknown;
}

/** The first refusal among a load's answers, as the error line says it, or null. */
function refusalOf(answers: Answer | readonly Answer[]): string | null {
  const refused = (Array.isArray(answers) ? answers : [answers]).find((a: Answer) => a.error)?.error;
  return refused ? problem(refused) : null;
}

/**
 * A view's loads, numbered: `begin()` as one starts, `take(n)` once its answers are in, which says
 * whether to show them. Answers of a load begun before the one on screen (another page or learner or
 * request chosen since, the tenant switched, a poll overtaken by the reload after a write) are
 * dropped, so a slow answer never replaces a newer one; any newer answer is shown, even while a load
 * begun after it is still on its way (a poll answered before the reload after a write).
 */
function useLoads() {
  const begun = useRef(0);
  const shown = useRef(0);
  return {
    begin: () => ++begun.current,
    take: (n: number) => {
      if (n < shown.current) return false;
      shown.current = n;
      return true;
    },
  };
}

export interface Page {
  /** The view's error line: the last call's refusal, else the last load's, else null. */
  error: string | null;
  /** An admin call: its refusal goes on the error line (its success clears it); `then` gets the data. */
  call: <D>(request: Promise<Answer<D>>, then?: (data: D | undefined) => void) => Promise<D | undefined>;
  /** An admin call that changes what the view shows: `call`, then the view's load again (resolved after it). */
  change: <D>(request: Promise<Answer<D>>, then?: (data: D | undefined) => void) => Promise<D | undefined>;
  /** A refusal of the view's own (a file that is not JSON), on the error line as a call's. */
  fail: (message: string) => void;
}

/**
 * A view's data and calls. `load` asks the admin API (one answer or several, `Promise.all`), and `show`
 * puts the answers on screen; the first refusal among them goes on the error line. The load runs when
 * `deps` change and, with `every`, again that many milliseconds after each look. Its answers are
 * dropped when a load begun later is already on screen (`useLoads`), or when `deps` changed (or the view
 * closed) since it began. A call's refusal stays on the error line through the reload after it and any
 * poll, until the next call or a change of `deps`.
 */
export function usePage<A extends Answer | readonly Answer[]>(
  load: () => Promise<A>,
  show: (answers: A) => void,
  deps: readonly unknown[],
  every?: number,
): Page {
  const loads = useLoads();
  // Bumped when `deps` change or the view closes: what a load begun before then answers is dropped.
  const generation = useRef(0);
  const [loaded, setLoaded] = useState<string | null>(null);
  const [called, setCalled] = useState<string | null>(null);

  const reload = async () => {
    const n = loads.begin();
    const begun = generation.current;
    const current = () => begun === generation.current && loads.take(n);
    let answers: A;
    try {
      answers = await load();
    } catch (e) {
      // The mock out of reach (the fetch itself failed).
      if (current()) setLoaded(problem(e));
      return;
    }
    if (!current()) return;
    show(answers);
    setLoaded(refusalOf(answers));
  };

  useEffect(() => {
    setCalled(null);
    const begun = generation.current;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const look = async () => {
      await reload();
      if (every && begun === generation.current) timer = setTimeout(look, every);
    };
    look();
    return () => {
      generation.current++;
      clearTimeout(timer);
    };
  }, deps);

  const call = async <D>(request: Promise<Answer<D>>, then?: (data: D | undefined) => void) => {
    let answer: Answer<D>;
    try {
      answer = await request;
    } catch (e) {
      setCalled(problem(e));
      return undefined;
    }
    setCalled(refusalOf(answer));
    then?.(answer.data);
    return answer.data;
  };

  return {
    error: called ?? loaded,
    call,
    change: async (request, then) => {
      const data = await call(request, then);
      await reload();
      return data;
    },
    fail: setCalled,
  };
}
