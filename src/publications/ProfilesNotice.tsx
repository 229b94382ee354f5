import { Alert, type AlertColor } from '@mui/material';
import { useTranslate } from 'react-admin';
import { profileText, type ProfileIdentity } from '../contract/profile-identity';

/** A note under the publish form's profiles naming some of them (`message` takes their count and their list). */
export const ProfilesNotice = ({
  profiles,
  message,
  severity,
  testId,
}: {
  profiles: (Omit<ProfileIdentity, 'id'> & { value: number | string })[];
  message: string;
  severity: AlertColor;
  testId: string;
}) => {
  const translate = useTranslate();
  if (!profiles.length) return null;
  return (
    <Alert severity={severity} data-testid={testId}>
      {translate(message, {
        smart_count: profiles.length,
        list: profiles.map((o) => profileText({ ...o, id: Number(o.value) })).join('; '),
      })}
    </Alert>
  );
};
