import type { Personalization } from '../../api/admin-types';

/** A static mock of the chat widget with the draft settings applied; texts render as text. */
export function WidgetPreview({ personalization: p }: { personalization: Personalization }) {
  const dark = p.theme.mode === 'dark';
  const primary = p.theme.colors['primary'] ?? '#3b4fd8';
  const background = p.theme.colors['background'] ?? (dark ? '#1b1f24' : '#ffffff');
  const text = p.theme.colors['text'] ?? (dark ? '#f0f2f4' : '#1b1f24');
  const name = p.assistantName?.trim() || 'Assistant';
  const avatar = p.assistantAvatar?.trim();
  const launcherImage = p.triggerButtonImageUrl?.trim();
  return (
    <figure className="widget-preview" aria-label="Widget preview">
      <div className="widget" style={{ background, color: text }} data-testid="widget-preview">
        <div className="widget-header" style={{ background: primary }}>
          {avatar ? <img src={avatar} alt="" className="widget-avatar" /> : <span className="widget-avatar placeholder" aria-hidden="true">{name.slice(0, 1).toUpperCase()}</span>}
          <span className="widget-title">{p.chatTitle?.trim() || name}</span>
        </div>
        <div className="widget-body">
          <p className="widget-bubble assistant">{p.welcomeMessage?.trim() || `Hi, I am ${name}. How can I help?`}</p>
          <p className="widget-bubble user" style={{ background: primary }}>Where can I change my address?</p>
        </div>
        <div className="widget-input">Type a message…</div>
        {p.poweredByVisible && <div className="widget-powered">Powered by Parley</div>}
      </div>
      <div className="widget-launcher" style={{ background: p.triggerButtonColor?.trim() || primary }} aria-hidden="true">
        {launcherImage ? (
          <img src={launcherImage} alt="" />
        ) : (
          <svg viewBox="0 0 24 24" width="24" height="24" fill="currentColor" aria-hidden="true">
            <path d="M4 4h16a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H9l-5 4v-4a2 2 0 0 1-2-2V6a2 2 0 0 1 2-2z" />
          </svg>
        )}
      </div>
      <figcaption className="muted small">Preview{p.theme.mode === 'system' ? ' (light; follows the device in the app)' : ''}</figcaption>
    </figure>
  );
}
