import {
  MODALITIES,
  PAGE_SIZES,
  type TModality,
  type TTemplate,
  type TTemplateListResponse,
} from '@ris/domain';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Plus, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { errorMessage } from '../../api/api-error.ts';
import { Page } from '../../components/layout/page.tsx';
import { Button } from '../../components/ui/button.tsx';
import { cn } from '../../components/ui/cn.ts';
import { Select } from '../../components/ui/select.tsx';
import { NEW_RECORD_ID, templatePath } from '../../paths.ts';
import { notify } from '../../stores/app-store.ts';
import { useAuth } from '../../stores/auth-store.ts';
import { PaginationBar } from '../worklist/pagination-bar.tsx';
import {
  ClickableRow,
  ConfirmDeleteDialog,
  ListTable,
  SearchField,
  TD_CLASS,
  TH_CLASS,
  formatUpdated,
  useDebouncedValue,
} from './list-parts.tsx';
import { ScopeBadge } from './scope-badge.tsx';
import {
  DELETE_TEMPLATE_FAILED,
  templateKeys,
  templatesApi,
  type TTemplateListParams,
} from './templates-api.ts';

const FETCH_TEMPLATES_FAILED = 'Failed to fetch templates';

/** 'mine': the templates screen's own list (an admin's covers the organisation); 'library': shared ones. */
type TTemplateTab = 'mine' | 'library';

const EMPTY: TTemplateListResponse = {
  items: [],
  total: 0,
  limit: PAGE_SIZES.templates,
  offset: 0,
  next_offset: null,
  previous_offset: null,
};

function listParams(
  tab: TTemplateTab,
  search: string,
  modality: TModality | '',
): Omit<TTemplateListParams, 'offset'> {
  return {
    purpose: tab === 'mine' ? 'manage' : 'insert',
    search: search.trim() || undefined,
    modality: modality || undefined,
    scopes: tab === 'library' ? ['ORGANISATION', 'DEFAULT'] : [],
    limit: PAGE_SIZES.templates,
  };
}

/** /templates — the report templates the user manages, and the shared library to copy from. */
export function TemplatesPage() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  // Whoever manages the organisation's templates lists all of them (the server's list rule).
  const managesShared = useAuth((state) => state.capabilities.create_organisation_templates);
  const [tab, setTab] = useState<TTemplateTab>('mine');
  const [search, setSearch] = useState('');
  const [modality, setModality] = useState<TModality | ''>('');
  const debouncedSearch = useDebouncedValue(search);
  const [offset, setOffset] = useState(0);
  const [toDelete, setToDelete] = useState<TTemplate | null>(null);

  const base = listParams(tab, debouncedSearch, modality);
  const filterKey = JSON.stringify(base);
  const [seenKey, setSeenKey] = useState(filterKey);
  if (seenKey !== filterKey) {
    setSeenKey(filterKey);
    setOffset(0);
  }
  const params: TTemplateListParams = { ...base, offset };
  const list = useQuery({
    queryKey: templateKeys.list(params),
    queryFn: ({ signal }) => templatesApi.list(params, signal),
    placeholderData: keepPreviousData,
    retry: false,
  });
  const page = list.data ?? { ...EMPTY, offset };

  const remove = useMutation({
    mutationFn: (template: TTemplate) => templatesApi.remove(template.id),
    onSuccess: async (_data, template) => {
      notify('success', `Template “${template.name}” deleted`);
      setToDelete(null);
      queryClient.removeQueries({ queryKey: templateKeys.item(template.id) });
      await queryClient.invalidateQueries({ queryKey: templateKeys.lists() });
    },
    onError: (error) => notify('error', errorMessage(error, DELETE_TEMPLATE_FAILED)),
  });

  const filtered = Boolean(debouncedSearch.trim() || modality);
  const emptyText = list.isError
    ? errorMessage(list.error, FETCH_TEMPLATES_FAILED)
    : filtered
      ? 'No templates match the filters.'
      : tab === 'mine'
        ? 'You have no templates yet. Create one, or duplicate one from the library.'
        : 'The library is empty.';

  return (
    <Page
      title="Templates"
      description="Report templates: inserted into a report from the editor's templates panel."
      actions={
        <Button asChild>
          <Link to={templatePath(NEW_RECORD_ID)}>
            <Plus aria-hidden="true" className="size-4" />
            New template
          </Link>
        </Button>
      }
    >
      <div className="flex flex-wrap items-center gap-3">
        <div
          role="group"
          aria-label="Which templates"
          className="flex rounded-md border border-line-strong p-0.5"
        >
          {(['mine', 'library'] as const).map((value) => (
            <button
              key={value}
              type="button"
              aria-pressed={tab === value}
              onClick={() => setTab(value)}
              className={cn(
                'h-7 rounded px-3 text-[13px] font-medium transition-colors',
                tab === value ? 'bg-accent-soft text-fg' : 'text-fg-muted hover:text-fg',
              )}
            >
              {value === 'mine' ? (managesShared ? 'Organisation' : 'My templates') : 'Library'}
            </button>
          ))}
        </div>
        <SearchField
          value={search}
          onChange={setSearch}
          label="Search templates"
          placeholder="Search name or body part"
        />
        <Select
          aria-label="Modality"
          value={modality}
          onChange={(event) => setModality(event.target.value as TModality | '')}
        >
          <option value="">All modalities</option>
          {MODALITIES.map((value) => (
            <option key={value} value={value}>
              {value}
            </option>
          ))}
        </Select>
      </div>

      <ListTable
        caption="Templates"
        busy={list.isFetching}
        isEmpty={page.items.length === 0}
        emptyText={emptyText}
        head={
          <>
            <th scope="col" className={TH_CLASS}>
              Name
            </th>
            <th scope="col" className={TH_CLASS}>
              Scope
            </th>
            <th scope="col" className={TH_CLASS}>
              Modality
            </th>
            <th scope="col" className={TH_CLASS}>
              Body part
            </th>
            {managesShared ? (
              <th scope="col" className={TH_CLASS}>
                Created by
              </th>
            ) : null}
            <th scope="col" className={TH_CLASS}>
              Updated
            </th>
            <th scope="col" className={cn(TH_CLASS, 'w-12')}>
              <span className="sr-only">Actions</span>
            </th>
          </>
        }
      >
        {page.items.map((template) => (
          <ClickableRow key={template.id} onOpen={() => void navigate(templatePath(template.id))}>
            <td className={cn(TD_CLASS, 'max-w-80')}>
              <Link
                to={templatePath(template.id)}
                className="block truncate font-medium text-fg hover:text-accent hover:underline"
              >
                {template.name}
              </Link>
              {template.status === 'INACTIVE' ? (
                <span className="text-[11px] text-fg-subtle">Inactive</span>
              ) : null}
            </td>
            <td className={TD_CLASS}>
              <ScopeBadge scope={template.scope} />
            </td>
            <td className={cn(TD_CLASS, 'text-fg-muted')}>{template.modality ?? 'Any'}</td>
            <td className={cn(TD_CLASS, 'text-fg-muted')}>{template.body_part ?? '—'}</td>
            {managesShared ? (
              <td className={cn(TD_CLASS, 'text-fg-muted')}>{template.created_by_display_name ?? '—'}</td>
            ) : null}
            <td className={cn(TD_CLASS, 'whitespace-nowrap text-fg-muted tabular-nums')}>
              {formatUpdated(template.updated_at)}
            </td>
            <td className={cn(TD_CLASS, 'text-right')}>
              {template.abilities.change ? (
                <Button
                  variant="ghost"
                  size="icon"
                  aria-label={`Delete template ${template.name}`}
                  onClick={() => setToDelete(template)}
                >
                  <Trash2 aria-hidden="true" className="size-4" />
                </Button>
              ) : null}
            </td>
          </ClickableRow>
        ))}
      </ListTable>
      <PaginationBar page={page} pageSize={PAGE_SIZES.templates} onOffset={setOffset} label="Templates" />

      <ConfirmDeleteDialog
        subject={toDelete ? `template “${toDelete.name}”` : null}
        pending={remove.isPending}
        onCancel={() => setToDelete(null)}
        onConfirm={() => toDelete && remove.mutate(toDelete)}
      />
    </Page>
  );
}
