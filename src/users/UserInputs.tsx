import { BooleanInput, PasswordInput, SelectInput, TextInput } from 'react-admin';

/** The user form's fields, shared by create and edit. */
export const UserInputs = ({ editing = false }: { editing?: boolean }) => (
  <>
    <TextInput source="login" label="kadr.users.fields.login" autoComplete="off" />
    <PasswordInput
      source="password"
      label="kadr.users.fields.password"
      autoComplete="new-password"
      helperText={editing ? 'kadr.users.password_keep_hint' : undefined}
    />
    <PasswordInput source="repeatPassword" label="kadr.users.fields.repeatPassword" autoComplete="new-password" />
    <SelectInput
      source="role"
      label="kadr.users.fields.role"
      isRequired
      defaultValue="user"
      choices={[
        { id: 'user', name: 'kadr.users.roles.user' },
        { id: 'admin', name: 'kadr.users.roles.admin' },
      ]}
    />
    <BooleanInput
      source="needsApproval"
      label="kadr.users.fields.needsApproval"
      helperText="kadr.users.needs_approval_hint"
      defaultValue={false}
    />
  </>
);

/** What the API receives: the repeat stays in the panel; an empty password is not sent (the current one stays). */
export const toUserBody = ({ login, password, role, needsApproval }: Record<string, unknown>) => ({
  login,
  ...(password ? { password } : {}),
  role: role || 'user',
  needsApproval: Boolean(needsApproval),
});
