import { type ReactNode, useId, useState } from 'react';
import { api, messageOf } from '../../lib/api.ts';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { useToast } from '../../ui/toast.tsx';
import * as ui from '../../ui/ui.css.ts';
import * as s from './admin.css.ts';
import * as f from './fields.css.ts';
import { ColourField, MoveButtons, Switch, moved } from './fields.tsx';
import { FormDialog } from './FormDialog.tsx';

/**
 * A list the server keeps in order (platforms, categories, products, notices, FAQ, register-where
 * options): a table with up/down buttons, and add, edit and delete in dialogs. Values are sent as
 * typed; the catalog service checks them and its Korean message is shown in the dialog.
 */
export type FieldKind = 'text' | 'textarea' | 'integer' | 'price' | 'colour' | 'flag' | 'select';
export type FieldSpec = { name: string; label: string; kind: FieldKind; options?: ReadonlyArray<{ value: string; label: string }>; createOnly?: boolean; hint?: string };
export type ColumnSpec<T> = { label: string; render(row: T): ReactNode; num?: boolean; wrap?: boolean };
export type Values = Record<string, string | boolean>;

export type RecordText<T> = {
  add: string;
  addTitle: string;
  editTitle(row: T): string;
  deleteTitle(row: T): string;
  created: string;
  updated: string;
  deleted: string;
  moved: string;
  empty: string;
  /** Shared words: order column, buttons, dialog texts. */
  common: { order: string; actions: string; edit: string; remove: string; save: string; close: string; up: string; down: string; deleteBody: string; failed: string; pick: string; colourPreview: string };
};

/** The words of one list's add, edit and delete (the catalogue's message groups hold them). */
export type RecordWords = { add: string; edit(label: string): string; delete(label: string): string; created: string; updated: string; deleted: string; empty: string };

/** A section's texts: its own words, the shared ones, and how a row is named in dialog titles. */
export function recordText<T>(words: RecordWords, shared: Pick<RecordText<T>, 'common' | 'moved'>, label: (row: T) => string): RecordText<T> {
  const { add, created, updated, deleted, empty } = words;
  return { ...shared, add, addTitle: add, editTitle: (row) => words.edit(label(row)), deleteTitle: (row) => words.delete(label(row)), created, updated, deleted, empty };
}

type Row = { id: number | string };

/** The body of a create (every field) or an update (only what changed), typed as the API wants. */
export function bodyOf(fields: readonly FieldSpec[], values: Values, before: Values | null): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const field of fields) {
    if (before !== null && field.createOnly) continue;
    const value = values[field.name]!;
    if (before !== null && value === before[field.name]) continue;
    if (typeof value === 'boolean') body[field.name] = value;
    else if (field.kind === 'integer' || field.kind === 'select') body[field.name] = /^\s*\d{1,15}\s*$/.test(value) ? Number(value) : value.trim() === '' ? null : value;
    else body[field.name] = value;
  }
  return body;
}

export function RecordSection<T extends Row>({
  title,
  lead,
  path,
  rows,
  loading,
  loadError,
  onChanged,
  columns,
  fields,
  initial,
  rowLabel,
  text,
  rowActions,
  toolbar,
  testId,
}: {
  title: string;
  lead?: ReactNode;
  /** The BFF path of the resource, e.g. `/admin/platforms`. */
  path: string;
  rows: readonly T[];
  loading: boolean;
  loadError: unknown;
  onChanged(): Promise<unknown>;
  columns: ReadonlyArray<ColumnSpec<T>>;
  fields: readonly FieldSpec[];
  initial(row: T | null): Values;
  rowLabel(row: T): string;
  text: RecordText<T>;
  rowActions?(row: T): ReactNode;
  toolbar?: ReactNode;
  testId: string;
}) {
  const toast = useToast();
  const headingId = useId();
  const [editing, setEditing] = useState<{ row: T | null; values: Values; before: Values | null } | null>(null);
  const [removing, setRemoving] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function run(action: () => Promise<unknown>, done: string, onError: (message: string) => void) {
    if (busy) return;
    setBusy(true);
    try {
      await action();
      toast.success(done);
      return true;
    } catch (caught) {
      onError(messageOf(caught, text.common.failed));
      return false;
    } finally {
      setBusy(false);
      await onChanged();
    }
  }

  const open = (row: T | null) => {
    setError(null);
    const values = initial(row);
    setEditing({ row, values, before: row === null ? null : values });
  };
  const save = async () => {
    if (!editing) return;
    const body = bodyOf(fields, editing.values, editing.before);
    const row = editing.row;
    const ok = await run(
      () => (row === null ? api(path, { method: 'POST', body }) : api(`${path}/${row.id}`, { method: 'PATCH', body })),
      row === null ? text.created : text.updated,
      setError,
    );
    if (ok) setEditing(null);
  };
  const remove = async () => {
    if (!removing) return;
    const row = removing;
    await run(() => api(`${path}/${row.id}`, { method: 'DELETE' }), text.deleted, (message) => toast.error(message));
    setRemoving(null);
  };
  const move = (index: number, delta: -1 | 1) =>
    void run(() => api(`${path}/order`, { method: 'PUT', body: { ids: moved(rows.map((r) => Number(r.id)), index, delta) } }), text.moved, (message) => toast.error(message));

  const set = (name: string, value: string | boolean) => setEditing((e) => (e ? { ...e, values: { ...e.values, [name]: value } } : e));
  const c = text.common;
  return (
    <section className={ui.card} aria-labelledby={headingId} data-testid={testId}>
      <div className={f.sectionHead}>
        <h2 id={headingId} className={`${ui.cardTitle} ${f.sectionTitle}`}>
          {title}
        </h2>
        <span className={s.actions}>
          {toolbar}
          <button type="button" className={`${ui.button.primary} ${ui.small}`} onClick={() => open(null)}>
            {text.add}
          </button>
        </span>
      </div>
      {lead && <p className={`${ui.hint} ${s.cardLead}`}>{lead}</p>}
      <div className={ui.tableWrap}>
        <table className={`${ui.table} ${s.table}`} aria-label={title} aria-busy={loading || busy}>
          <thead>
            <tr>
              <th className={ui.th}>{c.order}</th>
              {columns.map((col) => (
                <th key={col.label} className={col.num ? `${ui.th} ${ui.num}` : ui.th}>
                  {col.label}
                </th>
              ))}
              <th className={ui.th}>{c.actions}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row, index) => (
              <tr key={row.id} data-testid={`${testId}-${row.id}`}>
                <td className={ui.td}>
                  <MoveButtons name={rowLabel(row)} index={index} count={rows.length} disabled={busy} onMove={(delta) => move(index, delta)} upLabel={c.up} downLabel={c.down} />
                </td>
                {columns.map((col) => (
                  <td key={col.label} className={col.num ? `${ui.td} ${ui.num}` : col.wrap ? ui.tdWrap : ui.td}>
                    {col.render(row)}
                  </td>
                ))}
                <td className={ui.td}>
                  <span className={s.actions}>
                    {rowActions?.(row)}
                    <button type="button" className={`${ui.button.secondary} ${ui.small}`} aria-label={`${rowLabel(row)} ${c.edit}`} onClick={() => open(row)}>
                      {c.edit}
                    </button>
                    <button type="button" className={`${ui.button.danger} ${ui.small}`} aria-label={`${rowLabel(row)} ${c.remove}`} onClick={() => setRemoving(row)}>
                      {c.remove}
                    </button>
                  </span>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {loadError && rows.length === 0 ? (
          <div className={ui.empty} role="alert">
            {messageOf(loadError, c.failed)}
          </div>
        ) : (
          !loading && rows.length === 0 && <p className={ui.empty}>{text.empty}</p>
        )}
      </div>
      {editing && (
        <FormDialog
          title={editing.row === null ? text.addTitle : text.editTitle(editing.row)}
          description={title}
          confirmLabel={c.save}
          closeLabel={c.close}
          busy={busy}
          onClose={() => setEditing(null)}
          onConfirm={() => void save()}
        >
          <form
            className={f.dialogGrid}
            aria-label={editing.row === null ? text.addTitle : text.editTitle(editing.row)}
            noValidate
            onSubmit={(e) => {
              e.preventDefault();
              void save();
            }}
          >
            {fields.map((field) => (
              <FieldInput key={field.name} field={field} value={editing.values[field.name]!} disabled={editing.row !== null && field.createOnly === true} onChange={(v) => set(field.name, v)} common={c} />
            ))}
            <button type="submit" hidden />
          </form>
          {error && (
            <p className={ui.errorText} role="alert">
              {error}
            </p>
          )}
        </FormDialog>
      )}
      {removing && (
        <ConfirmDialog open tone="danger" onOpenChange={(isOpen) => !isOpen && setRemoving(null)} title={text.deleteTitle(removing)} description={c.deleteBody} confirmLabel={c.remove} busy={busy} onConfirm={() => void remove()} />
      )}
    </section>
  );
}

function FieldInput({ field, value, disabled, onChange, common }: { field: FieldSpec; value: string | boolean; disabled: boolean; onChange(v: string | boolean): void; common: RecordText<Row>['common'] }) {
  const id = useId();
  if (field.kind === 'flag') return <Switch label={field.label} checked={value === true} disabled={disabled} onChange={onChange} />;
  const text = typeof value === 'string' ? value : '';
  if (field.kind === 'colour') return <ColourField label={field.label} value={text} onChange={onChange} previewText={common.colourPreview} pickLabel={`${field.label} ${common.pick}`} />;
  let input: ReactNode;
  if (field.kind === 'textarea') input = <textarea id={id} className={ui.textarea} value={text} disabled={disabled} onChange={(e) => onChange(e.target.value)} />;
  else if (field.kind === 'select')
    input = (
      <select id={id} className={ui.input} value={text} disabled={disabled} onChange={(e) => onChange(e.target.value)}>
        <option value="">{common.pick}</option>
        {(field.options ?? []).map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    );
  else input = <input id={id} className={ui.input} value={text} disabled={disabled} inputMode={field.kind === 'text' ? undefined : field.kind === 'price' ? 'decimal' : 'numeric'} onChange={(e) => onChange(e.target.value)} />;
  return (
    <div className={field.kind === 'textarea' ? `${ui.field} ${f.fullRow}` : ui.field}>
      <label htmlFor={id} className={ui.label}>
        {field.label}
      </label>
      {input}
      {field.hint && <span className={ui.hint}>{field.hint}</span>}
    </div>
  );
}
