import { Button, Tooltip } from '@mui/material';
import QueueIcon from '@mui/icons-material/PlaylistAdd';
import { useTranslate } from 'react-admin';
import { useFormContext } from 'react-hook-form';

/**
 * "Add to queue" (issue 21 item 3): the form is sent with `queue` on, so the server places each post in its
 * profile's next free posting slot within the platform's budget (the dates typed are not used). The flag is set
 * only for this one submit: react-hook-form copies the values as the submit starts.
 */
export const QueueButton = () => {
  const translate = useTranslate();
  const { setValue } = useFormContext();
  return (
    <Tooltip title={translate('kadr.slots.queue_hint')} describeChild>
      <Button
        variant="outlined"
        startIcon={<QueueIcon />}
        data-action="queue"
        onClick={(e) => {
          setValue('queue', true);
          e.currentTarget.closest('form')?.requestSubmit();
          setValue('queue', false);
        }}
      >
        {translate('kadr.slots.queue')}
      </Button>
    </Tooltip>
  );
};
