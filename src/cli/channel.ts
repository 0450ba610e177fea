// Items handed from a producer that cannot wait on each one (a callback, such as the check's onRow)
// to a consumer that takes them with `for await` (a render writing to a slow pipe): the producer
// asks `room()` between items and waits while `high` are queued, so that memory holds a few
// items, never the whole. Taken once.

export class Channel<T> implements AsyncIterable<T> {
  private items: T[] = [];
  private head = 0;
  private ended = false;
  private failure: { error: unknown } | undefined;
  private taker: (() => void) | undefined;
  private giver: (() => void) | undefined;
  /** The consumer stopped taking (it broke off, or failed): the producer is let go, its items dropped. */
  private abandoned = false;

  constructor(private readonly high = 512) {}

  get queued(): number {
    return this.items.length - this.head;
  }

  push(item: T): void {
    if (this.abandoned) return;
    this.items.push(item);
    this.wake('taker');
  }

  /** A promise while the queue is full (resolved once the consumer took half of it); undefined when there is room. */
  room(): Promise<void> | undefined {
    if (this.abandoned || this.queued < this.high) return undefined;
    return new Promise((resolve) => {
      this.giver = resolve;
    });
  }

  /** No more items; `failure`: the producer's error, thrown to the consumer once it took the items before it. */
  end(failure?: { error: unknown }): void {
    this.ended = true;
    this.failure = failure;
    this.wake('taker');
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<T> {
    try {
      for (;;) {
        while (this.queued > 0) {
          const item = this.items[this.head++];
          // The taken items are dropped now and then, not one by one (an array's shift moves them all).
          if (this.head >= this.high) {
            this.items = this.items.slice(this.head);
            this.head = 0;
          }
          if (this.queued <= this.high / 2) this.wake('giver');
          yield item;
        }
        if (this.failure !== undefined) throw this.failure.error;
        if (this.ended) return;
        await new Promise<void>((resolve) => {
          this.taker = resolve;
        });
      }
    } finally {
      if (!this.ended) {
        this.abandoned = true;
        this.items = [];
        this.head = 0;
        this.wake('giver');
      }
    }
  }

  private wake(who: 'taker' | 'giver'): void {
    const resolve = this[who];
    this[who] = undefined;
    resolve?.();
  }
}
