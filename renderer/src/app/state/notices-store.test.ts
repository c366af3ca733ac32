import { describe, expect, it } from 'vitest';
import { createNoticesStore } from './notices-store';

describe('notices store: what the window tells the user', () => {
  it('shows the latest error and clears it', () => {
    const notices = createNoticesStore();
    notices.getState().showError({ code: 'io', message: 'The disk is full.' });
    notices.getState().showError({ code: 'not-found', message: 'Nothing exists at /x.' });
    expect(notices.getState().error).toEqual({
      code: 'not-found',
      message: 'Nothing exists at /x.',
    });
    notices.getState().showError(null);
    expect(notices.getState().error).toBeNull();
  });

  it('keeps the confirmation apart from the error', () => {
    const notices = createNoticesStore();
    notices.getState().showError({ code: 'io', message: 'The disk is full.' });
    notices.getState().showNotice('Saved');
    expect(notices.getState()).toMatchObject({ notice: 'Saved', error: { code: 'io' } });
    notices.getState().showNotice(null);
    expect(notices.getState()).toMatchObject({ notice: null, error: { code: 'io' } });
  });

  it('gives each window its own messages', () => {
    const one = createNoticesStore();
    const two = createNoticesStore();
    one.getState().showNotice('Saved');
    expect(two.getState().notice).toBeNull();
  });
});
