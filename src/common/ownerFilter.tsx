import { AutocompleteInput, ReferenceInput } from 'react-admin';

/**
 * Admins: rows of one owner, picked by login (searching the users list with `q`). A list filter (see listFilters.tsx) in a
 * file of its own: the autocomplete it brings is not loaded by lists that do not filter by owner (the users list).
 */
export const ownerFilter = () => (
  <ReferenceInput
    key="userId"
    source="userId"
    reference="users"
    label="kadr.lists.owner"
    sort={{ field: 'login', order: 'ASC' }}
  >
    <AutocompleteInput
      label="kadr.lists.owner"
      optionText="login"
      filterToQuery={(q: string) => ({ q })}
      sx={{ minWidth: 220 }}
    />
  </ReferenceInput>
);
