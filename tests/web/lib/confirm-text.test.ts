// The confirmation dialogs show what users typed (names, key names, service names) as text: markup
// in a title, a text, a button caption or a validation message creates no element.
import { waitFor } from '@testing-library/react';
import Swal from 'sweetalert2';
import { afterEach, describe, expect, it } from 'vitest';
import { confirmAction, promptText, showSuccess } from '@/lib/confirm';

const MARKUP = '<img src=x onerror=alert(1)><b>Bold</b>';

const untilOpen = () =>
  waitFor(() => {
    const popup = document.querySelector<HTMLElement>('.swal2-popup');
    expect(popup).not.toBeNull();
    return popup!;
  });

afterEach(() => {
  Swal.close();
});

describe('confirmation dialogs', () => {
  it('show a title, a text and button captions with markup as exactly those characters', async () => {
    const answer = confirmAction({
      title: `Suspend ${MARKUP}?`,
      text: `${MARKUP} is signed out.`,
      confirmText: `Yes, ${MARKUP}`,
      cancelText: '<i>No</i>',
      danger: true,
    });
    const dialog = await untilOpen();
    expect(dialog.querySelector('.swal2-title')?.textContent).toBe(`Suspend ${MARKUP}?`);
    expect(dialog.querySelector('.swal2-html-container')?.textContent).toBe(`${MARKUP} is signed out.`);
    expect(dialog.querySelector('.swal2-confirm')?.textContent).toBe(`Yes, ${MARKUP}`);
    expect(dialog.querySelector('.swal2-cancel')?.textContent).toBe('<i>No</i>');
    expect(dialog.querySelectorAll('img[src="x"], b, i')).toHaveLength(0);
    dialog.querySelector<HTMLButtonElement>('.swal2-cancel')!.click();
    expect(await answer).toBe(false);
  });

  it("show a prompt's required message and a success title as text", async () => {
    const reason = promptText({ title: MARKUP, text: 'Why?', inputLabel: 'Reason', required: `${MARKUP} needs a reason` });
    const dialog = await untilOpen();
    dialog.querySelector<HTMLButtonElement>('.swal2-confirm')!.click();
    await waitFor(() => expect(dialog.querySelector('.swal2-validation-message')?.textContent).toBe(`${MARKUP} needs a reason`));
    expect(dialog.querySelector('.swal2-title')?.textContent).toBe(MARKUP);
    expect(dialog.querySelectorAll('img[src="x"], b')).toHaveLength(0);
    Swal.close();
    expect(await reason).toBeNull();

    showSuccess(`Added ${MARKUP}`);
    const success = await untilOpen();
    expect(success.querySelector('.swal2-title')?.textContent).toBe(`Added ${MARKUP}`);
    expect(success.querySelectorAll('img[src="x"], b')).toHaveLength(0);
  });
});
