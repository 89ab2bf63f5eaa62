// Headlines and advice per error kind (src/invoices/invoice-errors.ts) and queue state. Kept apart from the
// page's own words: these move to the server's message catalogue, which will send them rendered, and this
// module then goes away.

/** @type {Record<string, string>} */
export const REASON_WORDS_ES = {
  'reason.mapping': 'El pedido no se puede facturar tal como está',
  'reason.mapping.do': 'Corrija lo indicado (en Configuración o en el pedido) y pulse Reintentar.',
  'reason.rejected': 'El proveedor rechazó la factura',
  'reason.rejected.do': 'Corrija el dato que indica el proveedor y pulse Reintentar.',
  'reason.credentials': 'El proveedor rechazó las credenciales de la tienda',
  'reason.credentials.do': 'Corrija las credenciales en Configuración; al guardar, las facturas continúan solas.',
  'reason.unavailable': 'El proveedor no respondió',
  'reason.unavailable.do': 'La app reintenta automáticamente.',
  'reason.indeterminate': 'El proveedor no respondió a tiempo',
  'reason.indeterminate.do': 'La app verifica con el proveedor antes de volver a enviar, para no facturar dos veces.',
  'reason.unrecoverable': 'El número fiscal ya figura como emitido',
  'reason.unrecoverable.do': 'Búsquelo en el portal del proveedor antes de hacer nada más; no reintente a ciegas.',
  'reason.writeback': 'Shopify no aceptó los datos de la factura en el pedido',
  'reason.writeback.do': 'La factura está autorizada. Revise el detalle y pulse Reintentar.',
  'reason.skipped': 'No se factura',
  'reason.skipped.do': 'Los pedidos de prueba no se envían a producción.',
  'reason.paused': 'En espera: la facturación está en pausa',
  'reason.paused.do': 'Corrija las credenciales en Configuración; al guardar, las facturas continúan solas.',
  'reason.disabled': 'En espera: la facturación está desactivada',
  'reason.disabled.do': 'Actívela en Configuración para emitir las facturas pendientes.',
  'reason.unknown': 'Detenida sin motivo registrado',
  'reason.unknown.do': 'Pulse Reintentar.',
  'reason.failed.do': 'Se agotaron los reintentos automáticos. Pulse Reintentar cuando se haya resuelto la causa.',
  'reason.code': 'código {code}',
};

/** @type {Record<string, string>} */
export const REASON_WORDS_EN = {
  'reason.mapping': 'The order cannot be invoiced as it stands',
  'reason.mapping.do': 'Correct what is named (in Settings or on the order), then press Retry.',
  'reason.rejected': 'The provider rejected the invoice',
  'reason.rejected.do': 'Correct the data the provider names, then press Retry.',
  'reason.credentials': "The provider refused the shop's credentials",
  'reason.credentials.do': 'Correct the credentials in Settings; once saved, invoices continue on their own.',
  'reason.unavailable': 'The provider did not answer',
  'reason.unavailable.do': 'The app retries automatically.',
  'reason.indeterminate': 'The provider did not answer in time',
  'reason.indeterminate.do': 'The app checks with the provider before sending again, so nothing is invoiced twice.',
  'reason.unrecoverable': 'The fiscal number is already issued',
  'reason.unrecoverable.do': "Look it up in the provider's portal before doing anything else; do not retry blindly.",
  'reason.writeback': "Shopify refused the invoice's data on the order",
  'reason.writeback.do': 'The invoice is authorized. Check the details, then press Retry.',
  'reason.skipped': 'Not invoiced',
  'reason.skipped.do': 'Test orders are never sent to production.',
  'reason.paused': 'On hold: invoicing is paused',
  'reason.paused.do': 'Correct the credentials in Settings; once saved, invoices continue on their own.',
  'reason.disabled': 'On hold: invoicing is turned off',
  'reason.disabled.do': 'Turn it on in Settings to issue the waiting invoices.',
  'reason.unknown': 'Stopped without a recorded reason',
  'reason.unknown.do': 'Press Retry.',
  'reason.failed.do': 'Automatic retries are used up. Press Retry once the cause is fixed.',
  'reason.code': 'code {code}',
};
