import { FilterButton, SearchInput, SelectInput, TopToolbar, useTranslate } from 'react-admin';
import type { StatusKind } from '../contract/statuses';

/**
 * The filters of the lists (issue 11), react-admin style: an always-visible search box (`q`) plus inputs
 * added from the "Add filter" button. Their values live in the list params, so in the URL
 * (`?filter={"q":"…"}&sort=name&order=ASC`), and the dataProvider passes them on as the API's query.
 * Each is a function so every list gets its own element with a stable key.
 */
export const searchFilter = () => <SearchBox key="q" source="q" alwaysOn />;

const SearchBox = (props: { source: string; alwaysOn: boolean }) => {
  const text = useTranslate()('kadr.lists.search');
  return <SearchInput {...props} placeholder={text} inputProps={{ 'aria-label': text }} sx={{ minWidth: 260 }} />;
};

/** Wide enough for the longest filter label ('Підключена платформа') to be read whole, not cut. */
const FILTER_WIDTH = { minWidth: 230 };

/** The list's top bar: "Add filter" (the filters not always shown) and the list's own buttons. */
export const ListActions = ({ children }: { children?: React.ReactNode }) => (
  <TopToolbar>
    <FilterButton />
    {children}
  </TopToolbar>
);

/** A status select whose labels are the SPEC §4 badge labels of `kind`. */
export const statusFilter = (kind: StatusKind, statuses: readonly string[]) => (
  <StatusSelect key="status" source="status" kind={kind} statuses={statuses} />
);

const StatusSelect = ({ kind, statuses }: { source: string; kind: StatusKind; statuses: readonly string[] }) => {
  const translate = useTranslate();
  return (
    <SelectInput
      source="status"
      label="kadr.lists.status"
      sx={FILTER_WIDTH}
      choices={statuses.map((s) => ({ id: s, name: translate(`kadr.status.${kind}.${s}`, { _: s }) }))}
    />
  );
};

/** A fixed select (`choices` names are brand names or i18n keys). */
export const selectFilter = (source: string, label: string, choices: { id: string; name: string }[]) => (
  <SelectInput key={source} source={source} label={label} choices={choices} sx={FILTER_WIDTH} />
);
