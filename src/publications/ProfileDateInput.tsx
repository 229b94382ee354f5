import type { InputProps } from 'react-admin';
import { useWatch } from 'react-hook-form';
import { useProfileZone } from '../slots/useProfileZone';
import { ZonedDateInput } from './ZonedDateInput';

/**
 * A video's date in its profile's time zone (the profile chosen in `accountSource`), the zone named; the shared
 * date (no profile) in the operator's.
 */
export const ProfileDateInput = ({ accountSource, ...props }: InputProps & { accountSource?: string }) => {
  const account = useWatch({ name: accountSource ?? '__none' }) as number | null | undefined;
  const zone = useProfileZone(accountSource ? account : null);
  return <ZonedDateInput {...props} zone={zone} />;
};
