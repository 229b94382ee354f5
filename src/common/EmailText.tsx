import { Fragment } from 'react';

/**
 * An email that wraps only after its '@' and before its dots (never mid-word: "olena.kovalenko. / marketing…"),
 * the whole address on hover.
 */
export const EmailText = ({ email }: { email: string }) => (
  <span title={email} style={{ overflowWrap: 'normal', wordBreak: 'normal' }}>
    {email.split(/(?=\.)|(?<=@)/).map((part, i) => (
      <Fragment key={i}>
        {i > 0 && <wbr />}
        {part}
      </Fragment>
    ))}
  </span>
);
