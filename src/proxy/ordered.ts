/**
 * Server frames handled one at a time, in arrival order, with flow control: once more than a little is
 * waiting (64 frames, or 1 MB of them), the source is paused until all of it is handled, so a slow
 * repair or a client that stops reading holds the server back instead of piling its output up in
 * memory. Below that the source keeps flowing: pausing and resuming a pipe for every small message
 * would cost two system calls per message on the proxy's hot path. Shared by the stdio and SSE relays.
 */

export interface Pausable {
  pause(): unknown;
  resume(): unknown;
}

const MAX_WAITING_ITEMS = 64;
const MAX_WAITING_SIZE = 1 << 20;

export class OrderedQueue<T> {
  private items: (T | undefined)[] = [];
  private head = 0;
  private waitingSize = 0;
  private running = false;
  private paused = false;
  private sourceEnded = false;
  private waiters: (() => void)[] = [];

  constructor(
    private readonly source: Pausable,
    /**
     * Handles one item: returns a promise only when it has to wait (a reader that is behind), so that
     * an item handled at once costs no promise. A throw is a bug in the caller and only skips that item.
     */
    private readonly handle: (item: T) => Promise<void> | undefined,
    /** The size of an item, in characters, for the flow-control limit. */
    private readonly sizeOf: (item: T) => number = () => 0,
  ) {}

  /** Adds the items a chunk completed, pausing the source while too much waits. */
  push(items: Iterable<T>): void {
    for (const item of items) {
      this.items.push(item);
      this.waitingSize += this.sizeOf(item);
    }
    if (
      !this.paused &&
      (this.items.length - this.head > MAX_WAITING_ITEMS || this.waitingSize > MAX_WAITING_SIZE)
    ) {
      this.paused = true;
      this.source.pause();
    }
    this.run();
  }

  /** The source has ended: nothing will be resumed any more. */
  endOfSource(): void {
    this.sourceEnded = true;
  }

  get idle(): boolean {
    return !this.running && this.head >= this.items.length;
  }

  /** Resolves once every item pushed so far is handled. */
  drained(): Promise<void> {
    if (this.idle) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  private run(): void {
    if (this.running) return;
    this.running = true;
    this.next();
  }

  /** Handles items until one has to wait (then again once it is done), or none is left. */
  private next(): void {
    while (this.head < this.items.length) {
      const item = this.items[this.head] as T;
      this.items[this.head++] = undefined; // let a handled 50 MB frame go
      this.waitingSize -= this.sizeOf(item);
      let waiting: Promise<void> | undefined;
      try {
        waiting = this.handle(item);
      } catch {
        // handle() reports its own failures; the order and the flow must survive them
      }
      if (waiting) {
        const resume = () => this.next();
        waiting.then(resume, resume);
        return;
      }
    }
    this.items = [];
    this.head = 0;
    this.waitingSize = 0;
    this.running = false;
    if (this.paused && !this.sourceEnded) this.source.resume();
    this.paused = false;
    const waiters = this.waiters;
    this.waiters = [];
    for (const resolve of waiters) resolve();
  }
}
