import { act, renderHook } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { useCaptchaGate } from './captcha.tsx';

describe('a form waiting for its captcha', () => {
  it('pressed while the captcha works, it is sent once the token arrives, with no error meanwhile', () => {
    const { result } = renderHook(() => useCaptchaGate(true));
    const send = vi.fn();
    let ready = true;
    act(() => {
      ready = result.current.ready(send);
    });
    expect(ready).toBe(false);
    expect(result.current.waiting).toBe(true);
    expect(result.current.failed).toBe(false);
    expect(send).not.toHaveBeenCalled();
    act(() => result.current.captchaProps.onToken('solved'));
    expect(send).toHaveBeenCalledTimes(1);
    expect(result.current.waiting).toBe(false);
    // With the token, the next submission goes at once.
    expect(result.current.ready(send)).toBe(true);
  });

  it('a captcha that failed is reported, and nothing is sent', () => {
    const { result } = renderHook(() => useCaptchaGate(true));
    const send = vi.fn();
    act(() => void result.current.ready(send));
    act(() => result.current.captchaProps.onFailed());
    expect(result.current.failed).toBe(true);
    expect(result.current.waiting).toBe(false);
    expect(send).not.toHaveBeenCalled();
    let ready = true;
    act(() => {
      ready = result.current.ready(send);
    });
    expect(ready).toBe(false);
    // Solved on a retry: no longer failed.
    act(() => result.current.captchaProps.onToken('solved'));
    expect(result.current.failed).toBe(false);
  });

  it('without a captcha, a form is always ready', () => {
    const { result } = renderHook(() => useCaptchaGate(false));
    expect(result.current.ready(vi.fn())).toBe(true);
  });
});
