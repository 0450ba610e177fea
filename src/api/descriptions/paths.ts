/** An operation's path as its description writes it: `/workspaces/{workspace}/contacts/{contact}`. */
const PARAMETER = /\{([^}]+)\}/g;

/** The names of the path's `{…}` parameters, in order. */
export const pathParameters = (path: string): string[] => [...path.matchAll(PARAMETER)].map(([, name]) => name);

/** The path with each `{name}` replaced by `fill(name)`. */
export const fillPath = (path: string, fill: (name: string) => string): string => path.replace(PARAMETER, (_, name: string) => fill(name));
