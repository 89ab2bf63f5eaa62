// The page's words for bulk actions on the list (bulk-actions.js), in Spanish and English (i18n.js merges them into
// each language's dictionary).

/** @type {Record<string, string>} */
export const BULK_WORDS_ES = {
  'bulk.label': 'Acciones en lote',
  'bulk.column': 'Seleccionar',
  'bulk.selectPage': 'Seleccionar esta página',
  'bulk.selectRow': 'Seleccionar {order}',
  'bulk.selected': '{count} seleccionados',
  'bulk.retry': 'Reintentar ({count})',
  'bulk.resend': 'Reenviar correo ({count})',
  'bulk.zip': 'Descargar PDF (ZIP) ({count})',
  'bulk.pageSelected': 'Los {count} documentos de esta página están seleccionados.',
  'bulk.selectAllMatching': 'Seleccionar los {count} que coinciden con los filtros',
  'bulk.allMatchingSelected': 'Seleccionados los {count} documentos que coinciden con los filtros.',
  'bulk.tooMany': 'Más de {max} coinciden con los filtros: acótelos (estado, tipo o fechas) para actuar sobre todos.',
  'bulk.clear': 'Quitar la selección',
  'bulk.retryConfirmTitle': '¿Reintentar {count} documentos?',
  'bulk.retryConfirmText':
    'Reintentar {count} documentos: los detenidos (fallidos o con atención requerida) se envían otra vez al proveedor y los que se autoricen quedan emitidos; los que esperan se envían ahora. Los demás quedan como están, y se dice por qué.',
  'bulk.working': 'Procesando…',
  'bulk.retried': 'Reintentados: {count}',
  'bulk.resent': 'Correos reenviados: {count}',
  'bulk.refused': 'No se hizo con {count}:',
  'bulk.zipped': 'ZIP descargado con {count} PDF',
  'bulk.zippedLeftOut': 'ZIP con {count} PDF; {left} sin PDF quedaron fuera (el ZIP trae la lista).',
  'bulk.failed': 'No se pudo completar la acción',
  'bulk.dismiss': 'Cerrar',
};

/** @type {Record<string, string>} */
export const BULK_WORDS_EN = {
  'bulk.label': 'Bulk actions',
  'bulk.column': 'Select',
  'bulk.selectPage': 'Select this page',
  'bulk.selectRow': 'Select {order}',
  'bulk.selected': '{count} selected',
  'bulk.retry': 'Retry ({count})',
  'bulk.resend': 'Resend e-mail ({count})',
  'bulk.zip': 'Download PDFs (ZIP) ({count})',
  'bulk.pageSelected': 'The {count} documents on this page are selected.',
  'bulk.selectAllMatching': 'Select all {count} that match the filters',
  'bulk.allMatchingSelected': 'All {count} documents that match the filters are selected.',
  'bulk.tooMany': 'More than {max} match the filters: narrow them (status, type or dates) to act on all.',
  'bulk.clear': 'Clear selection',
  'bulk.retryConfirmTitle': 'Retry {count} documents?',
  'bulk.retryConfirmText':
    'Retry {count} documents: the stopped ones (failed or needing attention) are sent to the provider again, and those authorized are issued; waiting ones are sent now. The others stay as they are, and you are told why.',
  'bulk.working': 'Working…',
  'bulk.retried': 'Retried: {count}',
  'bulk.resent': 'E-mails resent: {count}',
  'bulk.refused': 'Not done for {count}:',
  'bulk.zipped': 'ZIP downloaded with {count} PDFs',
  'bulk.zippedLeftOut': 'ZIP with {count} PDFs; {left} without a PDF were left out (the ZIP lists them).',
  'bulk.failed': 'The action could not be completed',
  'bulk.dismiss': 'Close',
};
