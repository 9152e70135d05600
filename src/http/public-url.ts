import type { Request } from 'express';

/** The address clients reach us at: PUBLIC_URL when set, else what this request came to. */
export function publicBaseUrl(req: Request, publicUrl: string | undefined): string {
  if (publicUrl) return publicUrl.replace(/\/+$/, '');
  return `${req.protocol}://${req.get('host') ?? 'localhost'}`;
}
