/**
 * The exchange each close responses/close-announced quotes came after: its evidence, with a curl line. The close may be
 * heard before the client has read the whole answer, or after, so each side looks for the other among what it holds.
 * Only the last answers are held, and only the first closes a report quotes wait for theirs.
 */
import type { UnannouncedClose } from './connection-reuse.js'
import type { Exchange } from './exchange.js'

export class CloseEvidence {
  /** The closes a report quotes, each with the exchange before it: the most a run waits to find. */
  static readonly QUOTED = 3
  private static readonly HELD = 32
  private readonly recent: Exchange[] = []
  private readonly waiting: UnannouncedClose[] = []
  private readonly found = new Map<UnannouncedClose, Exchange>()
  /** Closes heard so far: only the first QUOTED are matched. */
  private closes = 0

  /** `pathOf` gives a recorded URL as the path undici sent it with. */
  constructor(private readonly pathOf: (url: string) => string) {}

  /** The exchange a close came after, where it was found. */
  exchangeOf(close: UnannouncedClose): Exchange | undefined {
    return this.found.get(close)
  }

  /** An exchange ended: held a while, and matched to a close heard before it. Returned as it is. */
  answered(exchange: Exchange): Exchange {
    if (!exchange.response) return exchange
    const close = this.waiting.find((candidate) => this.matches(candidate, exchange))
    if (close) {
      this.found.set(close, exchange)
      this.waiting.splice(this.waiting.indexOf(close), 1)
    }
    this.recent.push(exchange)
    if (this.recent.length > CloseEvidence.HELD) this.recent.shift()
    return exchange
  }

  /** A close heard: one of the first few is matched to the exchange before it, now or once that exchange ends. */
  closed(close: UnannouncedClose): void {
    this.closes += 1
    if (this.closes > CloseEvidence.QUOTED) return
    const exchange = this.recent.findLast((candidate) => this.matches(close, candidate))
    if (exchange) this.found.set(close, exchange)
    else this.waiting.push(close)
  }

  private matches(close: UnannouncedClose, exchange: Exchange): boolean {
    const { previous } = close
    return exchange.response?.status === previous.status && exchange.request.method === previous.method && this.pathOf(exchange.request.url) === previous.path
  }
}
