import { creditBalanceText, creditLines, type MyCredit, showsCredit } from "../credit-lines.ts";

/**
 * **Credit** on My nights (issue 52, docs/decisions/057-credit.md): the number's balance, offered at
 * the next checkout, and every movement of it, newest first. Nothing for a number that never had any.
 */
export function MyCreditPanel({ credit, zone }: { credit: MyCredit; zone: string }) {
  if (!showsCredit(credit)) return null;
  return (
    <section className="night-group my-credit" aria-labelledby="me-credit">
      <h2 id="me-credit">{creditBalanceText(credit.balanceCents)}</h2>
      <p className="hint">Credit stays on your number with no expiry, and is offered when you book your next night.</p>
      <table className="credit-history">
        <caption className="sr-only">Credit history</caption>
        <thead>
          <tr>
            <th scope="col">Date</th>
            <th scope="col">Amount</th>
            <th scope="col">Reason</th>
          </tr>
        </thead>
        <tbody>
          {creditLines(credit, zone).map((line) => (
            <tr key={line.key}>
              <td>
                <time dateTime={line.at}>{line.when}</time>
              </td>
              <td>{line.amount}</td>
              <td>{line.reason}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
