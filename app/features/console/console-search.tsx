import { type FormEvent, useState } from 'react';
import { useTranslation } from '../../i18n/translation.tsx';
import { Button } from '../../ui/button.tsx';
import { TextField } from '../../ui/form-field.tsx';

/** The search form of a Console list (orders, members): one search field and its button; `onSearch` gets the trimmed text. */
export function ConsoleSearch({
  list,
  initial,
  testId,
  onSearch,
}: {
  /** Whose texts (`ops.{list}.search`, `.searchHint`, `.submit`). */
  list: 'orders' | 'members';
  /** The search the page shows now (its address's `q`). */
  initial: string;
  testId: string;
  onSearch: (text: string) => void;
}) {
  const { t } = useTranslation('console');
  const [text, setText] = useState(initial);
  const search = (event: FormEvent) => {
    event.preventDefault();
    onSearch(text.trim());
  };
  return (
    <form onSubmit={search} className="flex flex-col gap-3 sm:flex-row sm:items-end" data-testid={testId}>
      <TextField
        className="flex-1"
        label={t(`ops.${list}.search`)}
        hint={t(`ops.${list}.searchHint`)}
        name="q"
        type="search"
        value={text}
        maxLength={200}
        onChange={(e) => setText(e.target.value)}
      />
      <Button type="submit" className="sm:mb-7">
        {t(`ops.${list}.submit`)}
      </Button>
    </form>
  );
}
