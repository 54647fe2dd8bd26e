/**
 * A small rich-text editor for the bio and the terms: an editable region (role=textbox, multi-line) with a toolbar
 * of the formats the server keeps (api/admin/rich-text.ts: bold, italic, lists, links). Keyboard first: the toolbar's
 * buttons are ordinary buttons, Ctrl/Cmd+B and +I work in the text, and a button puts the focus back where the text
 * was selected. What it holds is sent as HTML; the server sanitises it.
 */
import { useEffect, useRef } from 'react';
import { describedBy } from './fields.tsx';

interface Props {
  id: string;
  label: string;
  hint?: string;
  error?: string | null;
  value: string;
  onChange(html: string): void;
}

const COMMANDS: Array<{ label: string; command: string; title: string }> = [
  { label: 'Bold', command: 'bold', title: 'Bold (Ctrl+B)' },
  { label: 'Italic', command: 'italic', title: 'Italic (Ctrl+I)' },
  { label: 'Bulleted list', command: 'insertUnorderedList', title: 'Bulleted list' },
  { label: 'Numbered list', command: 'insertOrderedList', title: 'Numbered list' },
];

export default function RichText({ id, label, hint, error, value, onChange }: Props) {
  const ref = useRef<HTMLDivElement>(null);
  const range = useRef<Range | null>(null);

  // Only a value from outside (loading, a reset) replaces what is in the region; typing does not.
  useEffect(() => {
    if (ref.current && ref.current.innerHTML !== value) ref.current.innerHTML = value;
  }, [value]);

  function remember() {
    const selection = document.getSelection();
    if (selection && selection.rangeCount && ref.current?.contains(selection.anchorNode)) range.current = selection.getRangeAt(0).cloneRange();
  }

  function run(command: string, argument?: string) {
    const region = ref.current;
    if (!region) return;
    region.focus();
    const selection = document.getSelection();
    if (range.current && selection) {
      selection.removeAllRanges();
      selection.addRange(range.current);
    }
    document.execCommand(command, false, argument);
    onChange(region.innerHTML);
    remember();
  }

  function link() {
    const address = window.prompt('Link address (https://…, mailto: or tel:)', 'https://');
    if (!address || address === 'https://') return;
    if (!/^(https?:\/\/|mailto:|tel:)/i.test(address.trim())) {
      window.alert('A link must start with https://, http://, mailto: or tel:');
      return;
    }
    run('createLink', address.trim());
  }

  const labelId = `${id}-label`;
  return (
    <div className="admin-field">
      <span className="edu-label" id={labelId}><strong>{label}</strong></span>
      {hint && <p className="hint" id={`${id}-hint`}>{hint}</p>}
      <div className="edu-toolbar" role="toolbar" aria-label={`${label} formatting`} aria-controls={id}>
        {COMMANDS.map((c) => (
          <button key={c.command} type="button" title={c.title} onMouseDown={(e) => e.preventDefault()} onClick={() => run(c.command)}>{c.label}</button>
        ))}
        <button type="button" onMouseDown={(e) => e.preventDefault()} onClick={link}>Link</button>
        <button type="button" onMouseDown={(e) => e.preventDefault()} onClick={() => run('unlink')}>Remove link</button>
      </div>
      <div
        ref={ref}
        id={id}
        className="edu-editor"
        role="textbox"
        aria-multiline="true"
        aria-labelledby={labelId}
        aria-describedby={describedBy(id, hint, error)}
        aria-invalid={error ? true : undefined}
        contentEditable
        suppressContentEditableWarning
        tabIndex={0}
        onInput={(e) => onChange(e.currentTarget.innerHTML)}
        onKeyUp={remember}
        onMouseUp={remember}
        onBlur={remember}
        data-testid={`${id}-editor`}
      />
      {error && <p className="field-error" id={`${id}-error`}>{error}</p>}
    </div>
  );
}
