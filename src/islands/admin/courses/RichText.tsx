/**
 * The course description's editor: a content-editable box with a formatting toolbar (bold, italic, heading, lists,
 * link). What it holds is HTML the server sanitises before keeping it (sanitize-html, src/lib/html.ts: the same
 * rules the course page renders with), so nothing typed or pasted here reaches a page unsanitised. Keyboard:
 * Tab reaches the toolbar, then the text; Ctrl+B / Ctrl+I work as in any editor.
 */
import { useEffect, useRef } from 'react';
import { fieldId } from '../../../domain/admin/course-form.ts';

interface Props {
  name: string;
  label: string;
  value: string;
  onChange(html: string): void;
  error?: string;
  hint?: string;
}

const COMMANDS: Array<{ label: string; title: string; run: () => void }> = [
  { label: 'Bold', title: 'Bold', run: () => document.execCommand('bold') },
  { label: 'Italic', title: 'Italic', run: () => document.execCommand('italic') },
  { label: 'Heading', title: 'Heading', run: () => document.execCommand('formatBlock', false, 'h3') },
  { label: 'Paragraph', title: 'Paragraph', run: () => document.execCommand('formatBlock', false, 'p') },
  { label: 'Bulleted list', title: 'Bulleted list', run: () => document.execCommand('insertUnorderedList') },
  { label: 'Numbered list', title: 'Numbered list', run: () => document.execCommand('insertOrderedList') },
  {
    label: 'Link', title: 'Link', run: () => {
      const url = window.prompt('Link address (https://…)');
      if (url && /^(https?:|mailto:|tel:)/i.test(url.trim())) document.execCommand('createLink', false, url.trim());
    },
  },
];

export default function RichText({ name, label, value, onChange, error, hint }: Props) {
  const id = fieldId(name);
  const box = useRef<HTMLDivElement>(null);
  const last = useRef<string | null>(null);

  // Written into the box only when it changes from outside (loading, saving), never while typing: the caret stays.
  useEffect(() => {
    if (box.current && value !== last.current && value !== box.current.innerHTML) {
      box.current.innerHTML = value;
      last.current = value;
    }
  }, [value]);

  const changed = () => {
    const html = box.current?.innerHTML ?? '';
    last.current = html;
    onChange(html === '<br>' ? '' : html);
  };
  const described = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(' ') || undefined;

  return (
    <div className="admin-field rich-text">
      <span className="rich-text__label" id={`${id}-label`}>{label}</span>
      {hint ? <p className="hint" id={`${id}-hint`}>{hint}</p> : null}
      <div className="rich-text__toolbar" role="toolbar" aria-label={`${label} formatting`} aria-controls={id}>
        {COMMANDS.map((c) => (
          <button
            key={c.title} type="button" className="btn btn--secondary btn--small"
            onMouseDown={(e) => e.preventDefault()}
            onClick={() => {
              box.current?.focus();
              c.run();
              changed();
            }}
          >
            {c.label}
          </button>
        ))}
      </div>
      <div
        ref={box} id={id} className="rich-text__box" contentEditable suppressContentEditableWarning role="textbox" aria-multiline="true"
        aria-labelledby={`${id}-label`} aria-describedby={described} aria-invalid={error ? true : undefined} tabIndex={0}
        onInput={changed} onBlur={changed}
      />
      {error ? <p className="field-error" id={`${id}-error`}>{error}</p> : null}
    </div>
  );
}
