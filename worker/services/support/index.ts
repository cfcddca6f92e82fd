// Support tickets: opened by users, answered by staff in a thread, each reply and the status it brings one transaction.
// The rest of the Worker calls what is exported here.
export { listAdminTickets, listUserTickets, readTicket } from './ticket-views';
export { adminUnreadCount, assignTicketToSelf, closeTicket, createTicket, replyAsStaff, replyAsUser, userUnreadCount } from './tickets';
