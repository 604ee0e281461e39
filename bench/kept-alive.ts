import http from 'node:http';

// How the load generators send: plain node:http on kept-alive connections, as a phone, a scan gun
// or a console holds its connection open, so a request's time is the service's answer and not a
// heavier client's own work.

const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

/** One request on a kept-alive connection: the answer's status and body. */
export function send(
  url: string,
  options: { method: string; headers?: Record<string, string>; body?: string },
) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const request = http.request(
      url,
      { method: options.method, headers: options.headers, agent },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () =>
          resolve({ status: answer.statusCode ?? 0, body: Buffer.concat(chunks).toString() }),
        );
        answer.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(options.body);
  });
}
