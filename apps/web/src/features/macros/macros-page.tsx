import { PAGE_SIZES, type TMacro } from '@ris/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Plus, Trash2 } from 'lucide-react';
import { useMemo, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { errorMessage } from '../../api/api-error.ts';
import { Page } from '../../components/layout/page.tsx';
import { richTextToPlainText } from '../../components/rich-text/rich-text-content.ts';
import { Button } from '../../components/ui/button.tsx';
import { cn } from '../../components/ui/cn.ts';
import { NEW_RECORD_ID, macroPath } from '../../paths.ts';
import { notify } from '../../stores/app-store.ts';
import { useAuth } from '../../stores/auth-store.ts';
import {
  ClickableRow,
  ConfirmDeleteDialog,
  ListTable,
  SearchField,
  TD_CLASS,
  TH_CLASS,
  formatUpdated,
} from '../templates/list-parts.tsx';
import { PaginationBar } from '../worklist/pagination-bar.tsx';
import { filterMacros, pageOf } from './macro-search.ts';
import { DELETE_MACRO_FAILED, macroKeys, macrosApi } from './macros-api.ts';

const FETCH_MACROS_FAILED = 'Failed to fetch macros';

/** /macros — the signed-in user's text macros: type the short key, then Space or Tab, in a report. */
export function MacrosPage() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const userId = useAuth((state) => state.user?.id ?? '');
  const [search, setSearch] = useState('');
  const [offset, setOffset] = useState(0);
  const [toDelete, setToDelete] = useState<TMacro | null>(null);

  const list = useQuery({
    queryKey: macroKeys.list(userId),
    queryFn: ({ signal }) => macrosApi.list(userId, signal),
    enabled: userId !== '',
    retry: false,
  });
  const matches = useMemo(() => filterMacros(list.data ?? [], search), [list.data, search]);
  const page = pageOf(matches, PAGE_SIZES.macros, offset);

  const remove = useMutation({
    mutationFn: (macro: TMacro) => macrosApi.remove(macro.id),
    onSuccess: async (_data, macro) => {
      notify('success', `Macro “${macro.short_key}” deleted`);
      setToDelete(null);
      await queryClient.invalidateQueries({ queryKey: macroKeys.all });
    },
    onError: (error) => notify('error', errorMessage(error, DELETE_MACRO_FAILED)),
  });

  const emptyText = list.isError
    ? errorMessage(list.error, FETCH_MACROS_FAILED)
    : search.trim()
      ? 'No macros match the search.'
      : 'You have no macros yet. A macro expands a short key into text while you type a report.';

  return (
    <Page
      title="Macros"
      description="In the report editor, type a short key and press Space or Tab to insert its text."
      actions={
        <Button asChild>
          <Link to={macroPath(NEW_RECORD_ID)}>
            <Plus aria-hidden="true" className="size-4" />
            New macro
          </Link>
        </Button>
      }
    >
      <SearchField
        value={search}
        onChange={(value) => {
          setSearch(value);
          setOffset(0);
        }}
        label="Search macros"
        placeholder="Search short key, name or text"
      />
      <ListTable
        caption="Macros"
        busy={list.isFetching}
        isEmpty={page.items.length === 0}
        emptyText={emptyText}
        head={
          <>
            <th scope="col" className={cn(TH_CLASS, 'w-36')}>
              Short key
            </th>
            <th scope="col" className={cn(TH_CLASS, 'w-56')}>
              Display name
            </th>
            <th scope="col" className={TH_CLASS}>
              Value
            </th>
            <th scope="col" className={cn(TH_CLASS, 'w-36')}>
              Updated
            </th>
            <th scope="col" className={cn(TH_CLASS, 'w-12')}>
              <span className="sr-only">Actions</span>
            </th>
          </>
        }
      >
        {page.items.map((macro) => (
          <ClickableRow key={macro.id} onOpen={() => void navigate(macroPath(macro.id))}>
            <td className={TD_CLASS}>
              <Link
                to={macroPath(macro.id)}
                className="rounded border border-line-strong bg-surface-raised px-1.5 py-0.5 font-mono text-[12px] font-medium text-fg hover:border-accent hover:text-accent"
              >
                {macro.short_key}
              </Link>
            </td>
            <td className={cn(TD_CLASS, 'max-w-56 truncate')}>{macro.display_name ?? '—'}</td>
            <td className={cn(TD_CLASS, 'max-w-0 truncate text-fg-muted')}>
              {richTextToPlainText(macro.value)}
            </td>
            <td className={cn(TD_CLASS, 'whitespace-nowrap text-fg-muted tabular-nums')}>
              {formatUpdated(macro.updated_at)}
            </td>
            <td className={cn(TD_CLASS, 'text-right')}>
              {macro.abilities.change ? (
                <Button
                  variant="ghost"
                  size="icon"
                  aria-label={`Delete macro ${macro.short_key}`}
                  onClick={() => setToDelete(macro)}
                >
                  <Trash2 aria-hidden="true" className="size-4" />
                </Button>
              ) : null}
            </td>
          </ClickableRow>
        ))}
      </ListTable>
      <PaginationBar page={page} pageSize={PAGE_SIZES.macros} onOffset={setOffset} label="Macros" />

      <ConfirmDeleteDialog
        subject={toDelete ? `macro “${toDelete.short_key}”` : null}
        pending={remove.isPending}
        onCancel={() => setToDelete(null)}
        onConfirm={() => toDelete && remove.mutate(toDelete)}
      />
    </Page>
  );
}
