import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/preact';
import { StatusChip } from './McpServerList';

describe('StatusChip', () => {
  it('a server waiting for the person to sign in is not shown as broken', () => {
    render(<StatusChip state="error" waitsForSignIn />);
    expect(screen.getByText('Waiting for sign-in').className).toContain('tone-warn');
    expect(screen.queryByText('Error')).toBeNull();
  });

  it('a real error stays an error', () => {
    render(<StatusChip state="error" />);
    expect(screen.getByText('Error').className).toContain('tone-danger');
  });
});
