/**
 * A destructive action asks first; for an index the name must be typed again, as a slip of the
 * mouse should not delete data.
 */
import { useState } from 'preact/hooks';

interface Props {
  title: string;
  message: string;
  /** when set, the confirm button stays disabled until this text is typed */
  typeToConfirm?: string;
  confirmLabel: string;
  onConfirm(): void;
  onCancel(): void;
}

export function ConfirmDialog({ title, message, typeToConfirm, confirmLabel, onConfirm, onCancel }: Props) {
  const [typed, setTyped] = useState('');
  const ready = typeToConfirm === undefined || typed === typeToConfirm;
  return (
    <dialog open aria-labelledby="confirm-title" onKeyDown={(e) => e.key === 'Escape' && onCancel()}>
      <article>
        <h3 id="confirm-title">{title}</h3>
        <p>{message}</p>
        {typeToConfirm !== undefined && (
          <label>
            Type <code>{typeToConfirm}</code> to confirm
            <input name="confirm" value={typed} autoFocus onInput={(e) => setTyped(e.currentTarget.value)} />
          </label>
        )}
        <footer>
          <button class="secondary" onClick={onCancel}>
            Cancel
          </button>
          <button class="danger" disabled={!ready} onClick={onConfirm}>
            {confirmLabel}
          </button>
        </footer>
      </article>
    </dialog>
  );
}
