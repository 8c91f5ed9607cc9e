import type { FastifyServerOptions } from 'fastify';

/**
 * Log options (security.md item 26): no token, password or one-time code ever reaches a log.
 * Request lines carry the path with secret-looking query values masked, never headers.
 */
/** What separates a URL's parameters, plain or percent-encoded (a URL carried inside a parameter). */
const SEPARATOR = /([?&;#]|%3F|%26|%3B|%23)/i;
const EQUALS = /=|%3D/i;
/** A parameter named as a secret, in any case, however nested (`user[password]`, `code[]`). */
const SECRET_NAME = /(?:^|[^a-z0-9])(?:code|token|password|access_token)\]?(?:\[[^\]]*\])*$/i;

/** Percent-decoded until nothing changes, at most a few times: `%63ode` and `%2563ode` read `code`. */
function decoded(text: string): string {
  let current = text;
  for (let round = 0; round < 4; round++) {
    const next = current.replace(/%([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
    if (next === current) break;
    current = next;
  }
  return current;
}

/** Whether a parameter's name, read as the server reads it (decoded), names a secret. */
function secretName(name: string): boolean {
  return SECRET_NAME.test(
    (
      decoded(name)
        .split(/[?&;#]/)
        .pop() ?? ''
    ).trim(),
  );
}

/** Whether a value carries a URL with a secret parameter, encoded more than once (`next=%252F...%253Fcode%253D...`). */
function carriesSecret(value: string): boolean {
  return decoded(value)
    .split(/[?&;#]/)
    .slice(1)
    .some((parameter) => parameter.includes('=') && secretName(parameter.slice(0, parameter.indexOf('='))));
}

function maskParameter(parameter: string): string {
  const equals = EQUALS.exec(parameter);
  if (!equals) return parameter;
  const name = parameter.slice(0, equals.index);
  const value = parameter.slice(equals.index + equals[0].length);
  return secretName(name) || carriesSecret(value) ? `${name}${equals[0]}[redacted]` : parameter;
}

/**
 * The URL with the value of every secret-looking parameter masked, wherever a URL can hold one:
 * after `?`, `&` or `;` (a path parameter), written plainly or percent-encoded (`%3Fcode%3D...`),
 * its name matched after decoding (`?%63ode=` is `?code=` to the server, issue 23 item 14); the
 * value runs to the next separator, plain or encoded.
 */
export function maskUrl(url: string): string {
  const parts = url.split(SEPARATOR);
  // [path, separator, parameter, separator, parameter, ...]
  for (let index = 2; index < parts.length; index += 2) parts[index] = maskParameter(parts[index] ?? '');
  return parts.join('');
}

export function loggerOptions(level: string, stream?: NodeJS.WritableStream): FastifyServerOptions['logger'] {
  return {
    level,
    ...(stream ? { stream } : {}),
    redact: {
      paths: [
        'req.headers.authorization',
        'headers.authorization',
        'password',
        '*.password',
        'user.password',
        'token',
        '*.token',
        'code',
        '*.code',
      ],
      censor: '[redacted]',
    },
    serializers: {
      req: (request: { method: string; url: string; ip?: string; id?: string }) => ({
        method: request.method,
        url: maskUrl(request.url),
        ip: request.ip,
      }),
    },
  };
}
