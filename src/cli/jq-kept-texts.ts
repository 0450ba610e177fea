// Part of jq's worker (jq-worker.ts, plain CommonJS JavaScript): the elements' texts of an ordered
// run (jq-whole.ts), as the CLI sends them, kept until their keys are ordered. They go to a temporary file, removed
// from its folder as soon as it is open (the open file stays readable; nothing is left behind
// if the process ends), in blocks of 1 MB: the CLI then holds one block, not the list's text
// (about 300 bytes a contact). Where no temporary file can be made, the blocks stay in memory.
// keep(bytes) adds what was sent and notes where each line ends (lineEnds); keptBytes(start, end)
// reads a range back; closeKept() closes the file, whether jq ended well or not.
export const KEPT_TEXTS = `
const keptFs = require('node:fs');
const keptPath = require('node:path');
const BLOCK = 1 << 20;
const lineEnds = [];
let block = new Uint8Array(BLOCK);
let blockLength = 0;
let kept = 0;
let keptFd;
const keptBlocks = [];
function openKeptFile() {
  try {
    const dir = keptFs.mkdtempSync(keptPath.join(require('node:os').tmpdir(), 'wsm-jq-'));
    const file = keptPath.join(dir, 'texts');
    const fd = keptFs.openSync(file, 'w+', 0o600);
    try {
      keptFs.unlinkSync(file);
      keptFs.rmdirSync(dir);
    } catch {
      // A system that keeps an open file in its folder: removed when closed.
      process.on('exit', () => keptFs.rmSync(dir, { recursive: true, force: true }));
    }
    return fd;
  } catch {
    return null;
  }
}
function flushBlock() {
  if (blockLength === 0) return;
  if (keptFd === undefined) keptFd = openKeptFile();
  if (keptFd === null) {
    keptBlocks.push(block.slice(0, blockLength));
  } else {
    let written = 0;
    while (written < blockLength) written += keptFs.writeSync(keptFd, block, written, blockLength - written, kept - blockLength + written);
  }
  blockLength = 0;
}
function keep(bytes) {
  for (let i = bytes.indexOf(10); i !== -1; i = bytes.indexOf(10, i + 1)) lineEnds.push(kept + i);
  for (let done = 0; done < bytes.length; ) {
    const n = Math.min(bytes.length - done, BLOCK - blockLength);
    block.set(bytes.subarray(done, done + n), blockLength);
    blockLength += n;
    done += n;
    kept += n;
    if (blockLength === BLOCK) flushBlock();
  }
}
function keptBytes(start, end) {
  flushBlock();
  const bytes = new Uint8Array(end - start);
  if (keptFd !== null && keptFd !== undefined) {
    let read = 0;
    while (read < bytes.length) {
      const n = keptFs.readSync(keptFd, bytes, read, bytes.length - read, start + read);
      if (n === 0) throw new Error('the kept texts ended early');
      read += n;
    }
    return bytes;
  }
  for (let at = start; at < end; ) {
    const n = Math.min(end - at, BLOCK - (at % BLOCK));
    bytes.set(keptBlocks[Math.floor(at / BLOCK)].subarray(at % BLOCK, (at % BLOCK) + n), at - start);
    at += n;
  }
  return bytes;
}
function closeKept() {
  if (keptFd !== null && keptFd !== undefined) keptFs.closeSync(keptFd);
  keptFd = null;
}
`;
