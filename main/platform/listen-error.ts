/**
 * Why a local server could not listen, in words for the person who chose the address and port.
 * The one wording for every server we start (`serve --http`, the app's skills server,
 * `skillbench web`), so a busy port reads the same everywhere.
 */
export function listenError(error: Error, host: string, port: number): Error {
  const code = (error as NodeJS.ErrnoException).code;
  const where = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  const message =
    code === 'EADDRINUSE'
      ? `Port ${port} on ${host} is already in use by another program. Choose another port, or leave the port out to use a free one.`
      : code === 'EADDRNOTAVAIL'
        ? `${host} is not an address of this computer, so nothing can listen there. Use 127.0.0.1.`
        : code === 'EACCES'
          ? `This computer does not allow listening on ${where} without administrator rights (ports below 1024 usually need them). Choose a port above 1023, or leave the port out to use a free one.`
          : `Could not listen on ${where}: ${error.message}`;
  return new Error(message, { cause: error });
}
