// Types of the undici files the transport imports by path (src/api/transport.ts says why): they
// are CommonJS files whose types undici publishes only through its index.
declare module 'undici/lib/api/index.js' {
  import type { Dispatcher } from 'undici';
  const api: { request: (this: Dispatcher, options: Dispatcher.RequestOptions) => Promise<Dispatcher.ResponseData> };
  export = api;
}

declare module 'undici/lib/dispatcher/env-http-proxy-agent.js' {
  import type { EnvHttpProxyAgent } from 'undici';
  const agent: typeof EnvHttpProxyAgent;
  export = agent;
}
