// The reseller API (/api/v2): the SMM panel protocol spoken by reseller tools, over the orders, catalogue and money domains.
// The rest of the Worker calls what is exported here.
export { answerResellerCall, OrderedAnswer, type ResellerCall, type ResellerParams, refusalText } from './reseller-api';
