/**
 * For tests that play a keyless table writer: erase every trace the batch markers of a log keep of its entries from
 * `fromSeq` on (docs/adr/0498-batch-markers-replace-positions.md). A marker naming only such entries is deleted; one
 * that also names earlier entries is rewritten to name only those, as an attacker hiding a deleted tail would.
 * Position items (req#<id>, sk 1) are the tests' own to delete, as before.
 */
import { DeleteItemCommand, PutItemCommand, QueryCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { MARKER_PREFIX, markerItem, markerOfItem } from '../../adapters/ledger-marker-item.js';

/** Returns how many markers were deleted or rewritten. */
export async function unmarkFrom(
  client: DynamoDBClient,
  table: string,
  logId: string,
  fromSeq: number,
): Promise<number> {
  const out = await client.send(
    new QueryCommand({
      TableName: table,
      KeyConditionExpression: 'pk = :pk AND sk >= :from',
      ExpressionAttributeValues: { ':pk': { S: MARKER_PREFIX + logId }, ':from': { N: String(fromSeq) } },
      ConsistentRead: true,
    }),
  );
  let touched = 0;
  for (const item of out.Items ?? []) {
    const marker = markerOfItem(item);
    await client.send(new DeleteItemCommand({ TableName: table, Key: { pk: item.pk!, sk: item.sk! } }));
    const kept = marker.positions.filter((p) => p.seq < fromSeq);
    if (kept.length > 0)
      await client.send(new PutItemCommand({ TableName: table, Item: markerItem({ logId, positions: kept }) }));
    touched += 1;
  }
  return touched;
}
