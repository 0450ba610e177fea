// Long text written in batches of about 64 KiB: never one string of the whole, never a system call a piece.

/**
 * Text handed to `emit` about 64 KiB at a time rather than a piece each, never as one string of the
 * whole; `write` says whether it handed a batch over, `end` hands over what is left.
 */
export function batched(emit: (text: string) => void): { write(text: string): boolean; end(): void } {
  let pending = '';
  const flush = () => {
    const text = pending;
    pending = '';
    emit(text);
  };
  return {
    write(text) {
      pending += text;
      if (pending.length < 1 << 16) return false;
      flush();
      return true;
    },
    end: flush,
  };
}

/** Text for stdout, 64 KiB at a time, each batch waiting until stdout takes more: a long document is never queued whole in memory. */
export function pacedText(output: { text(text: string): void; drained(): Promise<void> }): {
  write(text: string): Promise<void> | undefined;
  end(): void;
} {
  const out = batched((text) => output.text(text));
  return { write: (text) => (out.write(text) ? output.drained() : undefined), end: () => out.end() };
}
