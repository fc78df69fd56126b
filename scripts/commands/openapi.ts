// `gateway-harness openapi`: writes an OpenAPI 3.1 document of the gateway (both versions) generated from the catalog
// and the wire schemas, for other tools (client generators, mock servers, API gateways). Thin over openapi/.
import { writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Command } from 'commander';
import { EXIT } from '../../api/errors.ts';
import { buildOpenApiDocument, DEFAULT_SERVER } from '../../openapi/build-document.ts';
import { loadConfig } from '../../config/load-config.ts';
import { makeDirectory } from '../../reports/make-dir.ts';
import { outMovedTo } from '../flag-vocabulary.ts';

interface OpenApiFlags {
  outFile?: string;
  server?: string;
  config?: string;
}

/** The URL without `user:password@`: a document others read and commit must never carry credentials. */
function withoutUserInfo(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/?#@\s]*@/i, '$1');
}

function runOpenApi(opts: OpenApiFlags): number {
  // The config supplies the per-target write paths (and the base URL as the server default); flags win.
  const config = loadConfig({ cwd: process.cwd(), env: process.env, flags: opts.config === undefined ? {} : { config: opts.config } });
  const given = opts.server ?? config.baseUrl;
  const serverUrl = given === undefined ? undefined : withoutUserInfo(given);
  if (given !== undefined && serverUrl !== given) {
    process.stderr.write(
      'openapi: the server URL carried user info (user:password@): left out of the document; credentials go in --user/--password or GATEWAY_USER/GATEWAY_PASSWORD\n',
    );
  }
  const document = buildOpenApiDocument({ writePaths: config.writePaths, ...(serverUrl === undefined ? {} : { serverUrl }) });
  const text = `${JSON.stringify(document, null, 2)}\n`;
  if (opts.outFile === undefined) {
    process.stdout.write(text);
  } else {
    const path = resolve(opts.outFile);
    makeDirectory(dirname(path));
    writeFileSync(path, text);
    process.stderr.write(
      `openapi: wrote ${path} (${Object.keys(document.paths as object).length} paths, OpenAPI ${String(document.openapi)})\n`,
    );
  }
  return EXIT.ok;
}

export function register(program: Command): void {
  const cmd = program
    .command('openapi')
    .description(
      'Write an OpenAPI 3.1 document of the gateway (v1 and v2) generated from the operation catalog and the wire schemas:\n' +
        'HTTP Basic auth, the envelope per payload kind, request bodies; write paths the spec does not show carry x-path-assumed: true.',
    )
    .option('--out-file <file>', 'write the document to this file (default: standard output)')
    .option('--server <url>', `default of the base_url server variable (default: the configured target, else ${DEFAULT_SERVER})`)
    .option('--config <path>', 'JSON config file whose writePaths (and baseUrl) the document uses')
    .action((opts: OpenApiFlags) => {
      process.exitCode = runOpenApi(opts);
    });
  outMovedTo(cmd, '--out-file', 'the document file');
}
