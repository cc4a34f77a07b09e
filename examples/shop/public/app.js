// The shop page. It never sees a Parley key: it talks only to the shop's own backend (/api/chat/*).

const orders = [
  { id: '1001', date: '2026-10-02', status: 'Delivered', total: 54.9, items: ['Trail shoes'] },
  { id: '1002', date: '2026-10-28', status: 'Shipped', total: 23.5, items: ['Water bottle', 'Socks'] },
  { id: '1003', date: '2026-11-15', status: 'Processing', total: 129.0, items: ['Rain jacket'] },
];
const coupons = { WELCOME10: '10% off', SPRING5: '5 € off' };
const state = { screen: 'home', params: {}, coupon: null, sessionId: sessionStorage.getItem('shop.sessionId'), escalation: null, events: null };

// --- screens ---------------------------------------------------------------------------

const screens = {
  home: () => `<h1>Welcome back, <span id="customer">there</span></h1><p>Your last order is <a href="#/orders/1003">#1003</a> (Processing).</p>${couponNotice()}`,
  orders: () => `<h1>Your orders</h1><table><thead><tr><th>Order</th><th>Date</th><th>Status</th><th>Total</th></tr></thead><tbody>${orders
    .map((o) => `<tr><td><a href="#/orders/${o.id}">#${o.id}</a></td><td>${o.date}</td><td>${o.status}</td><td>${o.total.toFixed(2)} €</td></tr>`)
    .join('')}</tbody></table>${couponNotice()}`,
  order: ({ id }) => {
    const order = orders.find((o) => o.id === String(id));
    if (!order) return `<h1>Order not found</h1>`;
    return `<h1>Order #${order.id}</h1><p>Status: <strong>${order.status}</strong> · placed ${order.date}</p><ul>${order.items.map((i) => `<li>${escapeHtml(i)}</li>`).join('')}</ul><p>Total ${order.total.toFixed(2)} €</p>`;
  },
  settings: () => `<h1>Settings</h1><label><input type="checkbox" checked> E-mail me about my orders</label>`,
  help: () => `<h1>Help</h1><p>Returns are free within 30 days. Ask the assistant, or ask it for a person from our team.</p>`,
};

/** What the agent is told about the page: the screen and a compact summary of what is visible. */
function context() {
  const visible = {
    home: 'greeting; link to latest order #1003 (Processing)',
    orders: `orders table: ${orders.map((o) => `#${o.id} ${o.status}`).join(', ')}`,
    order: `order #${state.params.id ?? '?'} detail`,
    settings: 'notification preferences',
    help: 'returns policy; contact options',
  }[state.screen];
  return { currentScreen: state.screen, visible, ...(state.params.id ? { orderId: String(state.params.id) } : {}), coupon: state.coupon };
}

function couponNotice() {
  return state.coupon ? `<p class="notice" id="coupon">Coupon ${state.coupon} applied: ${coupons[state.coupon]}</p>` : '';
}

function route() {
  const [, name = 'home', id] = location.hash.replace(/^#\/?/, '#/').split('/');
  const screen = name === 'orders' && id ? 'order' : screens[name] ? name : 'home';
  state.screen = screen;
  state.params = id ? { id } : {};
  document.getElementById('screen').innerHTML = screens[screen](state.params);
  document.body.dataset.screen = screen;
  for (const link of document.querySelectorAll('.top nav a')) link.classList.toggle('current', link.getAttribute('href') === `#/${name}`);
  if (setup.customer) document.getElementById('customer')?.replaceChildren(setup.customer.name);
  void loadPrompts();
}

// --- actions the agent can ask for ------------------------------------------------------

const screenAliases = { home: 'home', orders: 'orders', order: 'order', settings: 'settings', help: 'help', account: 'settings', support: 'help' };

async function executeAction(action) {
  if (action.type === 'navigate') {
    const screen = screenAliases[String(action.payload.screen ?? '').toLowerCase()];
    if (!screen) return { success: false, error: `there is no screen "${action.payload.screen}" (screens: home, orders, order, settings, help)` };
    const id = action.payload.params?.id;
    location.hash = screen === 'order' ? `#/orders/${id ?? orders[0].id}` : `#/${screen}`;
    route();
    return { success: true, summary: `now showing ${state.screen}` };
  }
  if (action.type === 'applyCoupon') {
    const code = String(action.payload.code ?? '').toUpperCase();
    if (!coupons[code]) return { success: false, error: `coupon ${code} does not exist or has expired` };
    state.coupon = code;
    route();
    return { success: true, summary: `coupon ${code} applied (${coupons[code]})` };
  }
  if (action.type === 'escalate') {
    await startEscalation(String(action.payload.reason ?? 'asked for a person'));
    return { success: true, summary: 'a person from the team was asked to join' };
  }
  return { success: false, error: `this app cannot do ${action.type}` };
}

// --- the chat panel ---------------------------------------------------------------------

const log = document.getElementById('chat-log');
const panel = document.getElementById('chat');
let setup = {};

function bubble(role, text, from) {
  const item = document.createElement('li');
  item.className = role;
  item.textContent = text;
  if (from) item.dataset.from = from;
  log.append(item);
  log.scrollTop = log.scrollHeight;
  return item;
}

async function api(path, body) {
  const response = await fetch(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body ?? {}) });
  const data = await response.json();
  if (!response.ok) throw Object.assign(new Error(data.error?.message ?? `HTTP ${response.status}`), { code: data.error?.code });
  return data;
}

async function ensureSession() {
  if (!state.sessionId) {
    state.sessionId = (await api('/api/chat/session')).sessionId;
    sessionStorage.setItem('shop.sessionId', state.sessionId);
  }
  return state.sessionId;
}

/** The reply to a message, streamed: frames relayed by the backend from @parley/client. */
async function streamReply(content) {
  const response = await fetch('/api/chat/stream', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ content, sessionId: await ensureSession(), context: context() }) });
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  const item = bubble('assistant', '');
  const actions = [];
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let end;
    while ((end = buffer.indexOf('\n\n')) !== -1) {
      const line = buffer.slice(0, end).split('\n').find((l) => l.startsWith('data: '));
      buffer = buffer.slice(end + 2);
      if (!line) continue;
      const frame = JSON.parse(line.slice(6));
      if (frame.type === 'session') state.sessionId = frame.sessionId;
      if (frame.type === 'text-delta') item.textContent += frame.content;
      if (frame.type === 'tool-call') actions.push(frame.action);
      if (frame.type === 'error') throw new Error(frame.message);
    }
  }
  if (item.textContent === '') item.remove();
  return actions;
}

/** One turn (interface section 4): run the actions, report them with hop 1, 2, …, stop when isDone. */
async function runTurn(content) {
  panel.dataset.turn = 'running';
  try {
    let actions = await streamReply(content);
    for (let hop = 1; actions.length > 0; hop++) {
      const results = [];
      for (const action of actions) {
        let outcome;
        try {
          outcome = await executeAction(action);
        } catch (error) {
          outcome = { success: false, error: String(error.message ?? error) };
        }
        results.push({ actionId: action.id, type: action.type, ...outcome });
      }
      let reply;
      try {
        reply = await api('/api/chat/continue', { sessionId: state.sessionId, results, context: context(), hop });
      } catch (error) {
        // A person took over (the escalate action): the AI's turn ends here.
        if (error.code === 'ESCALATION_OPEN') break;
        throw error;
      }
      if (reply.message.content) bubble('assistant', reply.message.content);
      if (reply.isDone) break;
      actions = reply.message.actions;
    }
  } catch (error) {
    bubble('system', `Something went wrong: ${error.message}`);
  } finally {
    panel.dataset.turn = 'done';
  }
}

// --- human hand-off -------------------------------------------------------------------

async function startEscalation(note) {
  const escalation = await api('/api/chat/escalate', { sessionId: await ensureSession(), note });
  watchEscalation(escalation.escalationId);
}

function watchEscalation(escalationId) {
  state.escalation = escalationId;
  panel.dataset.escalation = 'pending';
  const seen = new Set();
  const events = new EventSource(`/api/chat/escalation/${escalationId}/events`);
  state.events = events;
  events.onmessage = (message) => {
    const event = JSON.parse(message.data);
    if (event.type === 'human-message' && !seen.has(event.message.id)) {
      seen.add(event.message.id);
      bubble('human', event.message.content, state.operatorName ?? 'Team');
    }
    if (event.type === 'status') {
      panel.dataset.escalation = event.status;
      if (event.operatorName) state.operatorName = event.operatorName;
      document.getElementById('chat-status').textContent = { pending: 'waiting for a person…', active: `${state.operatorName ?? 'a person'} is here`, resolved: '' }[event.status];
      if (event.status === 'resolved') {
        bubble('system', 'The conversation is back with the assistant.');
        events.close();
        state.escalation = null;
      }
    }
  };
}

async function send(content) {
  if (!content.trim()) return;
  bubble('user', content);
  if (state.escalation) {
    await api(`/api/chat/escalation/${state.escalation}/message`, { content }).catch((error) => bubble('system', error.message));
    return;
  }
  await runTurn(content);
}

// --- personalization and suggested prompts -------------------------------------------

async function loadPrompts() {
  const response = await fetch(`/api/chat/setup?screen=${encodeURIComponent(state.screen)}`);
  if (!response.ok) return;
  setup = await response.json();
  const p = setup.prompts;
  const suggestions = [...new Set([...(p.devDefined ?? []), ...(p.screenPopular ?? []), ...(p.globalPopular ?? [])])].slice(0, 4);
  const box = document.getElementById('chat-prompts');
  box.replaceChildren(
    ...suggestions.map((text) => {
      const button = document.createElement('button');
      button.type = 'button';
      button.textContent = text;
      button.onclick = () => void send(text);
      return button;
    }),
  );
}

async function personalize() {
  await loadPrompts();
  const look = setup.personalization ?? {};
  const colors = look.theme?.colors ?? {};
  for (const [token, value] of Object.entries(colors)) document.documentElement.style.setProperty(`--${token}`, value);
  if (look.triggerButtonColor) document.getElementById('chat-toggle').style.background = look.triggerButtonColor;
  document.getElementById('chat-title').textContent = look.chatTitle ?? look.assistantName ?? 'Assistant';
  if (log.children.length === 0) bubble('assistant', look.welcomeMessage ?? `Hi ${setup.customer?.name ?? ''}! How can I help?`);
  if (setup.customer) document.getElementById('customer')?.replaceChildren(setup.customer.name);
}

function escapeHtml(text) {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

document.getElementById('chat-form').addEventListener('submit', (event) => {
  event.preventDefault();
  const input = document.getElementById('chat-input');
  const content = input.value;
  input.value = '';
  void send(content);
});
document.getElementById('chat-toggle').addEventListener('click', () => {
  panel.hidden = !panel.hidden;
});
window.addEventListener('hashchange', route);
route();
void personalize();
