import type { FastifyServerOptions } from 'fastify';

/**
 * Log options (security.md item 26): no token, password or one-time code ever reaches a log.
 * Request lines carry the path with secret-looking query values masked, never headers.
 */
/**
 * A secret-looking parameter wherever a URL can hold one: after `?`, `&` or `;` (a path
 * parameter), written plainly or percent-encoded (`%3Fcode%3D...`, `%26token%3D...`); its value
 * runs to the next separator, plain or encoded.
 */
const SECRET_QUERY = /((?:[?&;]|%3F|%26|%3B)(?:code|token|password|access_token)(?:=|%3D))(?:(?!%26|%3B|%23|%3F)[^&;#?])*/gi;

export function maskUrl(url: string): string {
  return url.replace(SECRET_QUERY, '$1[redacted]');
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
