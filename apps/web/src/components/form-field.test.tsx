import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useForm } from 'react-hook-form';
import { describe, expect, it } from 'vitest';
import { FIELD_INPUT, FormField } from './form-field.tsx';

describe('FormField', () => {
  it('labels its input by the label element (htmlFor), with the default class and no error state', () => {
    render(<FormField id="name" label="Name" defaultValue="" autoComplete="name" />);
    const input = screen.getByLabelText('Name');
    expect(input.id).toBe('name');
    expect(input.tagName).toBe('INPUT');
    expect(input.className).toBe(FIELD_INPUT);
    expect(input.getAttribute('autocomplete')).toBe('name');
    expect(input.hasAttribute('aria-invalid')).toBe(false);
    expect(input.hasAttribute('aria-describedby')).toBe(false);
  });

  it('names its hint in aria-describedby (<id>-hint)', () => {
    render(<FormField id="rate" label="Rate" hint="From 1 to 100" inputMode="numeric" type="number" />);
    const input = screen.getByLabelText('Rate');
    expect(input.getAttribute('aria-describedby')).toBe('rate-hint');
    expect(document.getElementById('rate-hint')?.textContent).toBe('From 1 to 100');
    expect(input.hasAttribute('aria-invalid')).toBe(false);
    expect(screen.getByRole('spinbutton', { description: 'From 1 to 100' })).toBe(input);
    expect(input.getAttribute('inputmode')).toBe('numeric');
  });

  it('announces an error: aria-invalid, and the error after the hint in aria-describedby (<id>-error, test id too)', () => {
    render(<FormField id="rate" label="Rate" hint="From 1 to 100" error="Too high" />);
    const input = screen.getByLabelText('Rate');
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(input.getAttribute('aria-describedby')).toBe('rate-hint rate-error');
    expect(screen.getByTestId('rate-error').id).toBe('rate-error');
    expect(screen.getByRole('textbox', { description: 'From 1 to 100 Too high' })).toBe(input);
  });

  it('invalid without a message of its own sets aria-invalid and names nothing', () => {
    render(<FormField id="pw" label="Password" type="password" invalid />);
    const input = screen.getByLabelText('Password');
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(input.hasAttribute('aria-describedby')).toBe(false);
    expect(screen.queryByTestId('pw-error')).toBeNull();
  });

  it('an adornment sits beside the input in a relative box, the input keeps its label', () => {
    render(
      <FormField
        id="secret"
        label="Secret"
        inputClassName="x pe-20"
        adornment={<button type="button">Show</button>}
      />,
    );
    const input = screen.getByLabelText('Secret');
    expect(input.className).toBe('x pe-20');
    expect(input.parentElement?.className).toBe('relative');
    expect(input.nextElementSibling).toBe(screen.getByRole('button', { name: 'Show' }));
  });

  it("takes register()'s result: the form reads what is typed, and its ref reaches the input", async () => {
    let submitted: unknown;
    function Form() {
      const form = useForm({ defaultValues: { email: '' } });
      return (
        <form onSubmit={(e) => void form.handleSubmit((v) => (submitted = v))(e)}>
          <FormField id="email" label="Email" type="email" {...form.register('email')} />
          <button type="submit">Go</button>
          <button type="button" onClick={() => form.setFocus('email')}>
            Focus
          </button>
        </form>
      );
    }
    render(<Form />);
    const keys = userEvent.setup();
    await keys.type(screen.getByLabelText('Email'), 'a@b.c');
    await keys.click(screen.getByRole('button', { name: 'Go' }));
    expect(submitted).toEqual({ email: 'a@b.c' });
    await keys.click(screen.getByRole('button', { name: 'Focus' }));
    expect(document.activeElement).toBe(screen.getByLabelText('Email'));
  });
});
