// The Authorization values of the spec's Authentication space, derived by the runner from the target's credentials so a
// case names a near miss (a prefix, a case change, another scheme) without ever holding the password itself.
import { base64EncodeUtf8 } from '../api/base64.ts';
import { basicAuthorization, type TargetConnection } from '../api/request-builder.ts';
import { VariantUnavailable, type CredentialVariant } from './types.ts';

/** The password with the case of its first letter at or after `at` (modulo its length) changed. */
function caseChanged(password: string, at: number): string {
  const chars = [...password];
  for (let k = 0; k < chars.length; k++) {
    const i = (at + k) % chars.length;
    const c = chars[i] as string;
    const other = c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase();
    if (other !== c) return [...chars.slice(0, i), other, ...chars.slice(i + 1)].join('');
  }
  throw new VariantUnavailable('the password has no letter whose case could change');
}

/** The Authorization header value of the variant. */
export function variantAuthorization(
  variant: CredentialVariant,
  target: Pick<TargetConnection, 'user' | 'password'>,
  other?: { user: string; password: string },
): string {
  const { user, password } = target;
  switch (variant.kind) {
    case 'scheme':
      return `${variant.scheme} ${base64EncodeUtf8(`${user}:${password}`)}`;
    case 'empty-user':
      return basicAuthorization('', password);
    case 'empty-password':
      return basicAuthorization(user, '');
    case 'unknown-user':
      if (variant.user === user) throw new VariantUnavailable('the generated user is the right one');
      return basicAuthorization(variant.user, password);
    case 'password-prefix':
      // A non-empty proper prefix (the empty password is its own variant): `cut` of 1..length-1 characters off the end.
      if (password.length < 2) throw new VariantUnavailable('a one-character password has no non-empty proper prefix');
      return basicAuthorization(user, password.slice(0, password.length - (1 + ((Math.max(1, variant.cut) - 1) % (password.length - 1)))));
    case 'password-extension':
      return basicAuthorization(user, password + variant.extra);
    case 'password-case':
      return basicAuthorization(user, caseChanged(password, variant.at));
    case 'no-colon':
      return `Basic ${base64EncodeUtf8(`${user}${password}`)}`;
    case 'not-base64':
      return `Basic ${variant.token}`;
    case 'other-environment':
      if (other === undefined || (other.user === user && other.password === password))
        throw new VariantUnavailable('no other environment credentials configured (settings.otherEnvironment)');
      return basicAuthorization(other.user, other.password);
  }
}
