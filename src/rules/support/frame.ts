/** What each transport calls a frame, in the transport rules' messages. */
export const FRAME_WORDS: Readonly<Record<string, string>> = {
  stdio: 'stdout line',
  http: 'HTTP response body',
  sse: 'SSE event data',
  file: 'the input line',
};
