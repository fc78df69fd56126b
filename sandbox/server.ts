// Puts the embedded sandbox on a real socket: buildApp() never listens, this module does (CLI, harness commands, bench,
// socket tests). Loopback on an OS-chosen port by default, and a close() that cannot hang on a delayed transaction.
import type { AddressInfo } from 'node:net';
import { HarnessError } from '../api/errors.ts';
import { buildApp } from './app.ts';
import type { SandboxApp, SandboxOptions } from './app.ts';

export interface StartSandboxOptions extends SandboxOptions {
  /** Interface to bind; default 127.0.0.1 (the sandbox is a local test double, not a service). */
  host?: string;
  /** TCP port; default 0 (the OS picks a free one; read it back from RunningSandbox.port). */
  port?: number;
  /**
   * How long close() lets in-flight requests finish before it drops their connections. A trigger-delayed top-up can be
   * parked for 120 s × time scale; a shutdown must not wait for it. Default 2000 ms.
   */
  closeGraceMs?: number;
}

export interface RunningSandbox {
  /** Base URL with the bound address and port, e.g. http://127.0.0.1:40123 (no trailing slash). */
  url: string;
  port: number;
  host: string;
  app: SandboxApp;
  /** Stops listening, lets in-flight requests finish within the grace period, then drops what is left. Idempotent. */
  close(): Promise<void>;
}

export const DEFAULT_HOST = '127.0.0.1';
const DEFAULT_CLOSE_GRACE_MS = 2_000;

/** True for addresses that only this machine can reach; anything else exposes the sandbox's fixed credentials. */
export function isLoopbackHost(host: string): boolean {
  const h = host
    .trim()
    .toLowerCase()
    .replace(/^\[|\]$/g, '');
  return h === 'localhost' || h === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h) || h === '::ffff:127.0.0.1';
}

function urlHost(address: string): string {
  return address.includes(':') ? `[${address}]` : address;
}

function listenErrorMessage(error: unknown, host: string, port: number): string {
  const code = (error as { code?: unknown } | null)?.code;
  const where = `${host}:${port}`;
  if (code === 'EADDRINUSE') return `cannot listen on ${where}: the port is already in use`;
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') return `cannot listen on ${where}: no such local address`;
  if (code === 'EACCES') return `cannot listen on ${where}: permission denied`;
  return `cannot listen on ${where}: ${error instanceof Error ? error.message : String(error)}`;
}

/** Builds the app and listens. Listen failures become GH_ERR_CONFIG (exit 2) with a one-line reason. */
export async function startSandbox(options: StartSandboxOptions = {}): Promise<RunningSandbox> {
  const { host = DEFAULT_HOST, port = 0, closeGraceMs = DEFAULT_CLOSE_GRACE_MS, ...appOptions } = options;
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new HarnessError('GH_ERR_CONFIG', `sandbox port must be an integer 0..65535, got ${String(port)}`);
  }
  const app = await buildApp(appOptions);
  try {
    await app.fastify.listen({ host, port });
  } catch (error) {
    await app.close().catch(() => undefined);
    throw new HarnessError('GH_ERR_CONFIG', listenErrorMessage(error, host, port), { cause: error });
  }
  const address = app.fastify.server.address() as AddressInfo;

  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= (async () => {
      const server = app.fastify.server;
      const graceful = app.close();
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<'late'>((resolve) => {
        timer = setTimeout(() => resolve('late'), Math.max(0, closeGraceMs));
        timer.unref();
      });
      const first = await Promise.race([graceful.then(() => 'closed' as const), deadline]);
      clearTimeout(timer);
      if (first === 'late') {
        // In-flight requests outlived the grace period: drop their sockets so the close (and the process) can finish.
        server.closeAllConnections();
        await graceful;
      }
    })();
    return closing;
  };

  return { url: `http://${urlHost(address.address)}:${address.port}`, port: address.port, host: address.address, app, close };
}
