import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { AdminContext, ResourceContextProvider, SimpleForm, memoryStore, testDataProvider } from 'react-admin';
import { TagsInput } from '../../src/common/TagsInput';

function setup(defaultValues: Record<string, unknown> = { tags: [] }) {
  const onSubmit = vi.fn();
  render(
    <AdminContext dataProvider={testDataProvider()} store={memoryStore()}>
      <ResourceContextProvider value="tags">
        <SimpleForm onSubmit={onSubmit} defaultValues={defaultValues}>
          <TagsInput source="tags" label="Tags" />
        </SimpleForm>
      </ResourceContextProvider>
    </AdminContext>,
  );
  const box = screen.getByRole('textbox', { name: 'Tags' });
  const chips = () => {
    const list = screen.queryByRole('list', { name: 'Tags' });
    return list
      ? within(list)
          .getAllByRole('listitem')
          .map((li) => li.textContent)
      : [];
  };
  return { box, chips, onSubmit };
}

describe('TagsInput', () => {
  it('adds normalised chips on Enter and Space, ignoring duplicates', async () => {
    const user = userEvent.setup();
    const { box, chips } = setup();
    await user.type(box, 'Sea{Enter}');
    await user.type(box, '  SUN ');
    await user.type(box, 'sea{Enter}');
    await user.type(box, 'Сонце ');
    expect(chips()).toEqual(['sea', 'sun', 'сонце']);
    expect(box).toHaveValue('');
  });

  it('commits pending text on blur, removes the last chip with Backspace and a chip with its delete icon', async () => {
    const user = userEvent.setup();
    const { box, chips } = setup({ tags: ['one'] });
    expect(chips()).toEqual(['one']);
    await user.type(box, 'Two');
    await user.tab();
    expect(chips()).toEqual(['one', 'two']);
    await user.click(box);
    await user.keyboard('{Backspace}');
    expect(chips()).toEqual(['one']);
    const chip = within(screen.getByRole('list', { name: 'Tags' }))
      .getByText('one')
      .closest('.MuiChip-root')!;
    await user.click(chip.querySelector('.MuiChip-deleteIcon')!);
    expect(chips()).toEqual([]);
  });

  it('submits the tags as a string list', async () => {
    const user = userEvent.setup();
    const { box, onSubmit } = setup({ name: 'x', tags: [] });
    await user.type(box, 'A b{Enter}');
    await user.click(screen.getByRole('button', { name: /save/i }));
    await vi.waitFor(() => expect(onSubmit).toHaveBeenCalled());
    expect(onSubmit.mock.calls[0][0].tags).toEqual(['a', 'b']);
  });
});
