/** Shown where this server does not offer the admin route a page needs. */
export function Unavailable({ what }: { what: string }) {
  return (
    <div className="card">
      <p className="muted">{what} is not available on this server version yet.</p>
    </div>
  );
}
