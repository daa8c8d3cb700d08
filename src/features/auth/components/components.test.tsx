import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { fixtures } from '../../../../test/factories/auth';
import { COUNTRY_PAGE_SIZE, CountrySelect, countryLabel, matchesCountry } from './CountrySelect';
import { LanguagePicker } from './PublicHeader';

const COUNTRIES = fixtures.listCountries.data;

function Harness({ initial = '' }: { initial?: string }) {
  const [value, setValue] = useState(initial);
  return (
    <>
      <label htmlFor="country">Country</label>
      <CountrySelect id="country" countries={COUNTRIES} value={value} onChange={setValue} />
      <output data-testid="value">{value}</output>
      <button type="button">elsewhere</button>
    </>
  );
}

const input = () => screen.getByRole('combobox', { name: 'Country' });
const optionNames = () => screen.getAllByRole('option').map((option) => option.textContent);

describe('CountrySelect', () => {
  test("labels options 'Name (+code)' and filters by what is typed", async () => {
    render(<Harness />);
    await userEvent.click(input());
    expect(input()).toHaveAttribute('aria-expanded', 'true');
    expect(optionNames()).toEqual(COUNTRIES.map(countryLabel));
    await userEvent.type(input(), 'ind');
    expect(optionNames()).toEqual(['India (+91)', 'Indonesia (+62)']);
    await userEvent.clear(input());
    await userEvent.type(input(), '+3');
    expect(optionNames()).toEqual(['France (+33)', 'Italy (+39)', 'Spain (+34)']);
    await userEvent.type(input(), 'zz');
    expect(screen.queryAllByRole('option')).toHaveLength(0);
    expect(screen.getByText('No country matches')).toBeInTheDocument();
  });

  test('selects with the mouse and shows the choice', async () => {
    render(<Harness />);
    await userEvent.type(input(), 'jap');
    await userEvent.click(screen.getByRole('option', { name: 'Japan (+81)' }));
    expect(screen.getByTestId('value')).toHaveTextContent('JP');
    expect(input()).toHaveValue('Japan (+81)');
    expect(input()).toHaveAttribute('aria-expanded', 'false');
  });

  test('works from the keyboard: arrows, PageDown by five, Enter, Escape', async () => {
    render(<Harness />);
    await userEvent.click(input());
    const active = () =>
      document.getElementById(input().getAttribute('aria-activedescendant') ?? '')?.textContent;
    expect(active()).toBe('France (+33)');
    await userEvent.keyboard('{ArrowDown}');
    expect(active()).toBe('Germany (+49)');
    await userEvent.keyboard('{PageDown}');
    expect(active()).toBe(countryLabel(COUNTRIES[1 + COUNTRY_PAGE_SIZE]!));
    await userEvent.keyboard('{PageUp}{ArrowUp}{ArrowUp}');
    expect(active()).toBe('France (+33)');
    await userEvent.keyboard('{ArrowDown}{ArrowDown}{Enter}');
    expect(screen.getByTestId('value')).toHaveTextContent('IN');
    expect(input()).toHaveValue('India (+91)');
    await userEvent.keyboard('{ArrowDown}');
    expect(input()).toHaveAttribute('aria-expanded', 'true');
    expect(active()).toBe('India (+91)');
    await userEvent.type(input(), 'x');
    await userEvent.keyboard('{Escape}');
    expect(input()).toHaveAttribute('aria-expanded', 'false');
    expect(input()).toHaveValue('India (+91)');
    expect(screen.getByTestId('value')).toHaveTextContent('IN');
  });

  test('leaving the field closes it and restores the chosen label', async () => {
    render(<Harness initial="US" />);
    expect(input()).toHaveValue('United States (+1)');
    await userEvent.type(input(), 'abc');
    await userEvent.click(screen.getByRole('button', { name: 'elsewhere' }));
    expect(input()).toHaveValue('United States (+1)');
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
  });

  test('the chevron opens and closes the menu', async () => {
    render(<Harness />);
    await userEvent.click(screen.getByRole('button', { name: 'Show countries' }));
    expect(screen.getByRole('listbox', { name: 'Countries' })).toBeInTheDocument();
    expect(input()).toHaveFocus();
    await userEvent.click(screen.getByRole('button', { name: 'Show countries' }));
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
  });

  test('matchesCountry ignores case and spaces around the query', () => {
    const india = { id: 'IN', name: 'India', calling_code: '+91' };
    expect(matchesCountry(india, '  INDIA ')).toBe(true);
    expect(matchesCountry(india, '(+91')).toBe(true);
    expect(matchesCountry(india, 'france')).toBe(false);
  });
});

describe('LanguagePicker', () => {
  const renderPicker = () =>
    render(
      <>
        <LanguagePicker />
        <p>outside</p>
      </>,
    );

  test("offers the eight languages, the spec's three first, and switches to the choice at once", async () => {
    renderPicker();
    const toggle = screen.getByRole('button', { name: 'Language: English' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await userEvent.click(toggle);
    const items = await screen.findAllByRole('menuitemradio');
    expect(items.map((item) => item.textContent)).toEqual([
      'English',
      'French',
      'Italian',
      'Russian',
      'Japanese',
      'Spanish (International)',
      'Vietnamese',
      'Turkish',
    ]);
    expect(screen.getByRole('menuitemradio', { name: 'English' })).toHaveAttribute(
      'aria-checked',
      'true',
    );
    expect(screen.getByRole('menuitemradio', { name: 'English' })).toHaveFocus();
    await userEvent.keyboard('{ArrowDown}{Enter}');
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
    // Every language is named in its own words outside English.
    const french = await screen.findByRole('button', { name: 'Langue : Français' });
    expect(document.documentElement.lang).toBe('fr');
    expect(localStorage.getItem('portal.language')).toBe('fr');
    await userEvent.click(french);
    expect(screen.getByRole('menuitemradio', { name: 'Français' })).toHaveAttribute(
      'aria-checked',
      'true',
    );
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
    await waitFor(() => expect(french).toHaveFocus());
  });

  test('closes on a click outside', async () => {
    renderPicker();
    await userEvent.click(screen.getByRole('button', { name: 'Language: English' }));
    expect(await screen.findByRole('menu')).toBeInTheDocument();
    await userEvent.click(screen.getByText('outside'));
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
  });
});
