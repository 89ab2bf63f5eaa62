// The page's words for what may be done with a document (document-actions.js), the confirmations, and the replacement
// links, in Spanish and English (i18n.js merges them into each language's dictionary).

/** @type {Record<string, string>} */
export const ACTION_WORDS_ES = {
  'actions.withheld': 'Acciones no disponibles',
  'actions.retry': 'Reintentar',
  'actions.correct_client': 'Corregir cliente',
  'actions.reissue': 'Reemitir a otro cliente',
  'actions.resend_email': 'Reenviar el correo',
  'replacement.title': 'Reemisión',
  'replacement.replacedBy': 'Reemplazada por la factura',
  'replacement.replaces': 'Reemplaza a la factura',
  'replacement.replacesShort': 'reemplaza a {number}',
  'reissue.confirmTitle': '¿Emitir dos documentos fiscales?',
  'reissue.confirmText': 'Se emitirá una nota de crédito de {amount} para la factura {number}, y una nueva factura a {client}.',
  'reissue.confirm': 'Emitir ambos',
  'reissue.toTaxpayer': 'RUC {ruc} DV {dv} ({name})',
  'reissue.toConsumerNamed': 'consumidor final ({name})',
  'reissue.toConsumer': 'consumidor final',
  'retryAll.confirmTitle': '¿Reintentar los documentos detenidos?',
  'retryAll.confirmText':
    'Se volverán a enviar {count} documentos (fallidos o con atención requerida) al proveedor; los que se autoricen quedan emitidos.',
  'retryAll.confirm': 'Reintentar {count}',
  'reissue.failed': 'No se pudo reemitir la factura',
  'confirm.cancel': 'Cancelar',
};

/** @type {Record<string, string>} */
export const ACTION_WORDS_EN = {
  'actions.withheld': 'Actions not available',
  'actions.retry': 'Retry',
  'actions.correct_client': 'Correct client',
  'actions.reissue': 'Re-issue to another client',
  'actions.resend_email': 'Resend the e-mail',
  'replacement.title': 'Re-issue',
  'replacement.replacedBy': 'Replaced by invoice',
  'replacement.replaces': 'Replaces invoice',
  'replacement.replacesShort': 'replaces {number}',
  'reissue.confirmTitle': 'Issue two fiscal documents?',
  'reissue.confirmText': 'A credit note of {amount} will be issued for invoice {number}, and a new invoice to {client}.',
  'reissue.confirm': 'Issue both',
  'reissue.toTaxpayer': 'RUC {ruc} DV {dv} ({name})',
  'reissue.toConsumerNamed': 'a final consumer ({name})',
  'reissue.toConsumer': 'a final consumer',
  'retryAll.confirmTitle': 'Retry the stopped documents?',
  'retryAll.confirmText':
    '{count} documents (failed or needing attention) will be sent to the provider again; those authorized are issued.',
  'retryAll.confirm': 'Retry {count}',
  'reissue.failed': 'The invoice could not be re-issued',
  'confirm.cancel': 'Cancel',
};
