// The dispatch console's script (served by src/doors/pages/dispatch.ts, with Leaflet before it):
// draws the day's board on the map and in the lists, then keeps it live from the board's stream.
// Everything it shows comes from the page's JSON routes; it writes text only through textContent.
(() => {
  const data = JSON.parse(document.getElementById('console-data').textContent);
  /** A word of the page, placeholders filled; one the page did not send shows as ⟦key⟧, reported. */
  const text = (key, values = {}) => {
    const words = data.texts[key];
    if (typeof words !== 'string') {
      console.error(`The page sent no text "${key}"`);
      return `⟦${key}⟧`;
    }
    return words.replace(/\{(\w+)\}/g, (_, name) => String(values[name] ?? ''));
  };
  /** Stop states in colours that keep 3:1 against the map and the white ring around them. */
  const COLOURS = { pending: '#1a56a8', arrived: '#8a4f00', done: '#1b7a3c', failed: '#b3261e' };

  const map = L.map('map', { attributionControl: Boolean(data.tiles), zoomSnap: 0.5 });
  if (data.tiles) {
    L.tileLayer(data.tiles.url, { attribution: data.tiles.attribution, maxZoom: 19 }).addTo(map);
  }
  map.setView([20, 0], 2);
  const drawn = L.layerGroup().addTo(map);
  const day = document.getElementById('day');
  const dateField = document.getElementById('date');
  const live = document.getElementById('live');

  /** The board as last known: the snapshot, with every delta since applied. */
  let board = null;
  let fitted = false;
  let stream = null;
  let redraw = 0;

  const element = (tag, content, className) => {
    const node = document.createElement(tag);
    if (content !== undefined) node.textContent = content;
    if (className) node.className = className;
    return node;
  };
  const when = (iso) => new Date(iso).toLocaleTimeString(data.lang, { hour: 'numeric', minute: '2-digit' });
  const routeOf = (id) => board.routes.find((route) => route.id === id);

  /** Every route, stop and driver on the map; the view fits them the first time only. */
  function draw() {
    redraw = 0;
    drawn.clearLayers();
    const points = [];
    for (const route of board.routes) {
      const located = route.stops.filter((stop) => stop.lat !== null && stop.lng !== null);
      if (located.length > 1) {
        L.polyline(
          located.map((stop) => [stop.lat, stop.lng]),
          { color: '#5b6470', weight: 3, opacity: 0.7, className: 'route-line' },
        ).addTo(drawn);
      }
      for (const stop of located) {
        points.push([stop.lat, stop.lng]);
        L.circleMarker([stop.lat, stop.lng], {
          radius: 7,
          color: '#ffffff',
          weight: 2,
          fillColor: COLOURS[stop.state],
          fillOpacity: 1,
          className: `stop stop-${stop.state}`,
        })
          .bindTooltip(`${stop.order_ref} · ${text(stop.state)}`)
          .on('click', () => showOrder(stop.order_id))
          .addTo(drawn);
      }
      if (route.position) {
        points.push([route.position.lat, route.position.lng]);
        L.circleMarker([route.position.lat, route.position.lng], {
          radius: 9,
          color: '#1b1e23',
          weight: 2,
          fillColor: '#ffd166',
          fillOpacity: 1,
          className: 'driver',
        })
          .bindTooltip(route.driver.name)
          .addTo(drawn);
      }
    }
    if (!fitted && points.length > 0) {
      map.fitBounds(points, { padding: [24, 24], maxZoom: 15 });
      fitted = true;
    }
    lists();
    document.body.dataset.drawn = String(board.version);
  }

  /** The routes, exceptions and unplanned orders, as lists a keyboard can walk. */
  function lists() {
    const routes = document.getElementById('routes');
    routes.replaceChildren(
      ...(board.routes.length === 0
        ? [element('li', text('noRoutes'), 'meta')]
        : board.routes.map((route) => {
            const item = element('li');
            item.append(element('strong', route.driver.name), ` · ${text(route.status)}`);
            item.append(
              element(
                'p',
                text('stops', {
                  done: route.stops_done,
                  failed: route.stops_failed,
                  remaining: route.stops_remaining,
                }),
                'meta',
              ),
            );
            const seen = route.position
              ? text('lastSeen', { minutes: Math.round(secondsSince(route.position.at) / 60) })
              : text('neverSeen');
            item.append(element('p', seen, 'meta'));
            return item;
          })),
    );
    const waiting = board.exceptions.filter((exception) => exception.kind === 'order_unplanned');
    const others = board.exceptions.filter((exception) => exception.kind !== 'order_unplanned');
    const exceptions = document.getElementById('exceptions');
    exceptions.replaceChildren(
      ...(others.length === 0 ? [element('li', text('noExceptions'), 'meta')] : others.map(exceptionItem)),
    );
    const unplanned = document.getElementById('unplanned');
    unplanned.replaceChildren(
      ...(waiting.length === 0
        ? [element('li', text('noUnplanned'), 'meta')]
        : waiting.map((exception) =>
            orderItem(exception.order_id, exception.order?.order_ref ?? `#${exception.order_id}`),
          )),
    );
  }

  /** An exception in the board's word for its kind, with what each kind's words name. */
  function exceptionItem(exception) {
    const route = exception.route_id !== null ? routeOf(exception.route_id) : undefined;
    const line = text(exception.kind, {
      order: exception.order_id !== null ? orderRef(exception) : '',
      driver: route?.driver.name ?? '',
      time: route?.departure ?? '',
      since: exception.since ? when(exception.since) : '—',
    });
    return exception.order_id !== null ? orderItem(exception.order_id, line) : element('li', line);
  }

  function orderRef(exception) {
    if (exception.order) return exception.order.order_ref;
    for (const route of board.routes) {
      const stop = route.stops.find((candidate) => candidate.order_id === exception.order_id);
      if (stop) return stop.order_ref;
    }
    return `#${exception.order_id}`;
  }

  function orderItem(orderId, label) {
    const item = element('li');
    const button = element('button', label);
    button.type = 'button';
    button.addEventListener('click', () => showOrder(orderId));
    item.append(button);
    return item;
  }

  const secondsSince = (iso) => Math.max(0, (Date.now() - new Date(iso).getTime()) / 1000);

  /** An order's status, recipient, address and window, in the side panel. */
  async function showOrder(orderId) {
    const panel = document.getElementById('order');
    panel.replaceChildren(element('p', text('loading'), 'meta'));
    const answer = await fetch(`${data.orders}${orderId}.json`, { credentials: 'same-origin' });
    if (!answer.ok) {
      panel.replaceChildren(element('p', text('notFound'), 'meta'));
      return;
    }
    const { order } = await answer.json();
    const details = element('dl');
    const row = (label, value) => {
      if (!value) return;
      details.append(element('dt', label), element('dd', value));
    };
    const place = order.dropoff ?? order.pickup;
    row(text('status'), order.status);
    row(text('recipient'), place?.name);
    row(
      text('address'),
      place ? [place.line1, place.postal_code, place.city].filter(Boolean).join(', ') : '',
    );
    row(
      text('window'),
      order.time_window ? `${when(order.time_window.start)}–${when(order.time_window.end)}` : '',
    );
    panel.replaceChildren(element('h3', order.order_ref), details);
  }

  /** Applies one message of the board's stream; the map is drawn again once per frame. */
  function apply(kind, message) {
    if (kind === 'snapshot') {
      board = message;
    } else if (!board || message.version < board.version) {
      return;
    } else if (kind === 'route') {
      const index = board.routes.findIndex((route) => route.id === message.route.id);
      const previous = board.routes[index];
      const route = { ...previous, ...message.route };
      if (index < 0) board.routes.push(route);
      else board.routes[index] = route;
    } else if (kind === 'route_removed') {
      board.routes = board.routes.filter((route) => route.id !== message.route_id);
    } else if (kind === 'stop') {
      const route = routeOf(message.route_id);
      const index = route?.stops.findIndex(
        (stop) => stop.order_id === message.stop.order_id && stop.leg === message.stop.leg,
      );
      if (route && index >= 0) route.stops[index] = message.stop;
    } else if (kind === 'position') {
      const route = routeOf(message.route_id);
      if (route) route.position = message.position;
    } else if (kind === 'exception') {
      board.exceptions = board.exceptions.filter((held) => held.key !== message.exception.key);
      board.exceptions.push(message.exception);
    } else if (kind === 'exception_cleared') {
      board.exceptions = board.exceptions.filter((held) => held.key !== message.key);
    } else if (kind === 'totals') {
      board.totals = message.totals;
    }
    if (board.version === undefined || message.version > board.version) board.version = message.version;
    if (!redraw) redraw = requestAnimationFrame(draw);
  }

  /** Follows the board of a day: a snapshot first, then its changes; a lost stream starts over. */
  function follow(date) {
    if (stream) stream.close();
    fitted = false;
    live.textContent = text('loading');
    const query = date ? `?date=${encodeURIComponent(date)}` : '';
    stream = new EventSource(`${data.stream}${query}`);
    for (const kind of [
      'snapshot',
      'route',
      'route_removed',
      'stop',
      'position',
      'exception',
      'exception_cleared',
      'totals',
    ]) {
      stream.addEventListener(kind, (event) => {
        apply(kind, JSON.parse(event.data));
        if (kind === 'snapshot') {
          dateField.value = board.date;
          live.textContent = text('live');
          document.body.dataset.boardVersion = String(board.version);
        }
      });
    }
    stream.addEventListener('error', () => {
      live.textContent = text('reconnecting');
    });
  }

  day.addEventListener('submit', (event) => {
    event.preventDefault();
    follow(dateField.value);
  });
  follow(new URLSearchParams(location.search).get('date') ?? '');
})();
