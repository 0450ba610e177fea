// Which hosts are this machine's loopback, and how a host is written in a URL: one rule for the
// embedded server (the Host it trusts, the warning off loopback) and `wsm mcp --http` (the Host it
// answers, the token it requires off loopback).

/** The names a loopback server is reached by, as a URL writes them. */
export const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]'];

/** A host as it appears in a URL: IPv6 addresses in brackets, lowercase. */
export const urlHost = (host: string) => (host.includes(':') && !host.startsWith('[') ? `[${host}]` : host).toLowerCase();

/** localhost, 127.x.y.z or ::1 (bracketed or not). */
export const isLoopbackHost = (host: string) => /^(localhost|127(\.\d{1,3}){3}|::1|\[::1\])$/i.test(host);
